import { describe, expect, it } from "vitest";
import { RequestSlots } from "../../server/webhooks/request-slots";

function slotsOf(capacity: number) {
  let wakes = 0;
  const slots = new RequestSlots(capacity, () => wakes++);
  return { slots, wakes: () => wakes };
}

describe("the delivery worker's request slots", () => {
  it("are held from the claim until the answer, and answered deliveries are listed until settled", () => {
    const { slots } = slotsOf(3);
    const batch = slots.beginClaim();
    slots.take("a", batch);
    slots.take("b", batch);
    expect(slots.free).toBe(1);
    slots.answer("a");
    expect(slots.free).toBe(2);
    expect(slots.answeredIds()).toEqual(["a"]);
    slots.settle("a");
    expect(slots.answeredIds()).toEqual([]);
    expect(slots.free).toBe(2);
    // settled without an answer (the attempt failed before one): the slot is freed then, once
    slots.settle("b");
    slots.settle("b");
    expect(slots.free).toBe(3);
  });

  it("say whether a slot was freed during the claim, and wake the worker only when none runs", () => {
    const { slots, wakes } = slotsOf(2);
    const first = slots.beginClaim();
    slots.take("a", first);
    slots.take("b", first);
    expect(slots.endClaim()).toBe(false);

    slots.answer("a"); // between claims: the worker is woken
    expect(wakes()).toBe(1);

    slots.beginClaim();
    slots.answer("b"); // during a claim: counted, no wake
    expect(wakes()).toBe(1);
    expect(slots.endClaim()).toBe(true);
    expect(slots.beginClaim() && slots.endClaim()).toBe(false);
  });

  it("resolve a batch's wait when its last request is answered, or after the time given", async () => {
    const { slots } = slotsOf(4);
    const batch = slots.beginClaim();
    slots.take("a", batch);
    slots.take("b", batch);
    let done = false;
    const waiting = batch.answeredOrAfter(60_000).then(() => (done = true));
    slots.answer("a");
    await Promise.resolve();
    expect(done).toBe(false);
    slots.answer("b");
    await waiting;
    expect(done).toBe(true);

    const other = slots.beginClaim();
    slots.take("c", other);
    const started = Date.now();
    await other.answeredOrAfter(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    await slots.beginClaim().answeredOrAfter(60_000); // nothing started: at once
  });
});
