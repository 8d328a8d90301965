/**
 * A sleep that wake() cuts short; a wake that arrives while the loop is busy (not sleeping) is
 * remembered, so the next sleep returns at once instead of losing it. The background loops (job
 * runner, webhook delivery worker) sleep on one of these between looks at their queues.
 */
export class Sleeper {
  private wakeUp: (() => void) | undefined;
  private pending = false;

  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.pending = true;
  }
}
