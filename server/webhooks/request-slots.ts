/**
 * The delivery worker's request slots. A claimed delivery holds a slot until its request is
 * answered; it then stays `answered` (no slot, but not yet claimable again) until its outcome is
 * written. Claims run one at a time: a slot freed during a claim is counted so the worker claims
 * again at once; one freed while no claim runs calls `onFreedWhileIdle` (the worker wakes).
 */
export class RequestSlots {
  private readonly holding = new Map<string, ClaimBatch>();
  private readonly answered = new Set<string>();
  private claiming = false;
  private freedDuringClaim = 0;

  constructor(
    private readonly capacity: number,
    private readonly onFreedWhileIdle: () => void,
  ) {}

  /** Slots a claim may fill now. */
  get free(): number {
    return this.capacity - this.holding.size;
  }

  /** Deliveries whose request has its answer and whose outcome is being written: the claim does not count them against their endpoint's share. */
  answeredIds(): string[] {
    return [...this.answered];
  }

  /** Starts a claim; the deliveries it starts are taken into the batch returned. */
  beginClaim(): ClaimBatch {
    this.claiming = true;
    this.freedDuringClaim = 0;
    return new ClaimBatch();
  }

  /** Ends the claim; true when a slot was freed while it ran (claim again at once). */
  endClaim(): boolean {
    this.claiming = false;
    return this.freedDuringClaim > 0;
  }

  /** A delivery of the batch holds a slot from now on. */
  take(id: string, batch: ClaimBatch): void {
    this.holding.set(id, batch);
    batch.unanswered++;
  }

  /** The delivery's request has its answer: its slot is free, its outcome not yet written. */
  answer(id: string): void {
    this.answered.add(id);
    this.release(id);
  }

  /** The delivery's outcome is written (or could not be): nothing of it is held any more. */
  settle(id: string): void {
    this.answered.delete(id);
    this.release(id);
  }

  private release(id: string): void {
    const batch = this.holding.get(id);
    if (!batch) return;
    this.holding.delete(id);
    this.freedDuringClaim++;
    batch.answerOne();
    if (!this.claiming) this.onFreedWhileIdle();
  }
}

/** The requests one claim started. */
export class ClaimBatch {
  unanswered = 0;
  private onAllAnswered?: () => void;

  answerOne(): void {
    if (--this.unanswered === 0) this.onAllAnswered?.();
  }

  /** Resolves once every request of the batch has its answer, or after `ms`. */
  answeredOrAfter(ms: number): Promise<void> {
    if (this.unanswered === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.onAllAnswered = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
