/**
 * Jobs taken one at a time in turns between their owners, round robin: an owner with a backlog
 * takes one turn, then goes to the back of the line behind every owner that waits. So a job
 * waits for at most one job of each other owner that waits, and, when its owner is the only other
 * one, for the job that runs when it arrives.
 *
 * `take` is called once the previous job has finished (the image worker encodes one at a time):
 * the owner served last rejoins the line only then, behind whoever arrived meanwhile.
 */
export class FairQueue<Owner, Job> {
  /** Owners with jobs waiting, in the order of their turns (a Map keeps insertion order). */
  private readonly line = new Map<Owner, Job[]>();
  /** The owner served last and the jobs it still has: out of the line until the next `take`. */
  private served: { owner: Owner; jobs: Job[] } | undefined;

  push(owner: Owner, job: Job): void {
    if (this.served?.owner === owner) this.served.jobs.push(job);
    else {
      const jobs = this.line.get(owner);
      if (jobs) jobs.push(job);
      else this.line.set(owner, [job]);
    }
  }

  /** The next job, the previous one being done; undefined when none waits. */
  take(): Job | undefined {
    if (this.served?.jobs.length) this.line.set(this.served.owner, this.served.jobs);
    this.served = undefined;
    const next = this.line.entries().next();
    if (next.done) return undefined;
    const [owner, jobs] = next.value;
    this.line.delete(owner);
    const job = jobs.shift();
    this.served = { owner, jobs };
    return job;
  }
}
