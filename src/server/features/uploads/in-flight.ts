/**
 * The uploads each account has under way on this instance, at most `max` at once: the next is
 * refused before its body is read. In this process's memory (a process that dies takes its count
 * with it); an account spreading uploads over several instances has `max` on each, and each
 * instance's spool stays bounded by its own size (UPLOAD_SPOOL_MB).
 */
export class UploadsInFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes one of the account's places, or undefined when all are taken; the function gives it back once. */
  take(account: string): (() => void) | undefined {
    const n = this.counts.get(account) ?? 0;
    if (n >= this.max) return undefined;
    this.counts.set(account, n + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.counts.get(account) ?? 1) - 1;
      if (left > 0) this.counts.set(account, left);
      else this.counts.delete(account);
    };
  }
}
