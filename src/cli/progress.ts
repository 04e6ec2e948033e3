/** A progress bar on stderr (files done/total, rate, ETA), drawn only when stderr is a terminal. */
export class Progress {
  private done = 0;
  private last = 0;
  private drawn = false;
  private readonly start = Date.now();

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream,
    /** Draw nothing before this many ms: short runs stay quiet. */
    private readonly delayMs = 300,
  ) {}

  tick(): void {
    this.done++;
    const now = Date.now();
    if (now - this.start < this.delayMs || (now - this.last < 100 && this.done < this.total)) return;
    this.last = now;
    this.draw(now);
  }

  private draw(now: number): void {
    const secs = (now - this.start) / 1000;
    const rate = secs > 0 ? this.done / secs : 0;
    const eta = rate > 0 ? (this.total - this.done) / rate : 0;
    const width = 30;
    const filled = Math.round((this.done / this.total) * width);
    const etaText = `${Math.floor(eta / 60)}:${String(Math.round(eta % 60)).padStart(2, '0')}`;
    this.out.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total}  ${rate < 10 ? rate.toFixed(1) : Math.round(rate)} files/s  ETA ${etaText} `,
    );
    this.drawn = true;
  }

  /** Clear the bar's line (before other output to the same terminal; the next tick draws it again). */
  clear(): void {
    if (this.drawn) this.out.write('\r\x1b[2K');
    this.drawn = false;
  }

  end(): void {
    this.clear();
  }
}
