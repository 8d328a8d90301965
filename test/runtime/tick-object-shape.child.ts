// Run by tick-object-shape.test.ts with V8 flags that make the collection below free every hidden
// class no live object uses (no optimizing compiler: optimized code would keep them in some runs):
// prints V8's view of process.nextTick (its inline caches) after full collections at a moment when
// no tick object is alive, with the tick object shape held first ("hold") or not.
import { holdTickObjectShape } from "../../scripts/lib/tick-object-shape";

const debugPrint = new Function("value", "%DebugPrint(value)") as (value: unknown) => void;
const collectGarbage = (globalThis as { gc?: () => void }).gc!;
const noop = () => undefined;
const tickBurst = () => {
  for (let i = 0; i < 1000; i++) process.nextTick(noop);
};

if (process.argv[2] === "hold") holdTickObjectShape();
setTimeout(() => {
  for (let i = 0; i < 50; i++) tickBurst();
  setTimeout(() => {
    for (let i = 0; i < 6; i++) collectGarbage();
    setTimeout(() => {
      tickBurst();
      setTimeout(() => debugPrint(process.nextTick), 10);
    }, 10);
  }, 10);
}, 10);
