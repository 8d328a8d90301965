/** At most this many steps on the y-axis. */
const MAX_STEPS = 5;

/**
 * The y-axis: whole-number ticks from 0, one apart while the highest bar is at most MAX_STEPS
 * (so 1 is always there for a small count), else 2, 5, 10, 20, 50 ... apart; the top tick is at
 * or above the highest bar.
 */
export function yAxisTicks(highest: number): number[] {
  const top = Math.max(1, Math.ceil(highest));
  let step = 1;
  for (let magnitude = 1; Math.ceil(top / step) > MAX_STEPS;) {
    const next = [1, 2, 5]
      .map((factor) => factor * magnitude)
      .find((candidate) => candidate > step && Math.ceil(top / candidate) <= MAX_STEPS);
    if (next) step = next;
    else magnitude *= 10;
  }
  return Array.from({ length: Math.ceil(top / step) + 1 }, (_, index) => index * step);
}
