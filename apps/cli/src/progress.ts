import type { Job } from '@folio/sdk';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** One line of progress: the job's state and how long it has been waited for. */
export function jobProgressLine(job: Pick<Job, 'job_id' | 'status'>, elapsedMs: number, frame?: number): string {
  const spinner = frame === undefined || job.status === 'succeeded' || job.status === 'failed' ? '' : `${SPINNER[frame % SPINNER.length]} `;
  return `${spinner}job ${job.job_id}: ${job.status} · ${(elapsedMs / 1000).toFixed(1)} s`;
}

export interface Progress {
  /** What is known of the job now: the acceptance's answer, then each poll. */
  update(job: Pick<Job, 'job_id' | 'status'>): void;
  /** Ends the display (the line stays). */
  done(): void;
}

/**
 * Shows a waiting job on stderr. On a terminal: one line redrawn ten times a second, a spinner with the state and the
 * time so far. Elsewhere (a pipe, a log file, CI): a line each time the state changes, so logs stay readable.
 */
export function showProgress(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): Progress {
  const started = now();
  let latest: Pick<Job, 'job_id' | 'status'> | undefined;
  let lastStatus: string | undefined;
  let frame = 0;
  if (!stream.isTTY) {
    return {
      update(job) {
        if (job.status === lastStatus) return;
        lastStatus = job.status;
        stream.write(`${jobProgressLine(job, now() - started)}\n`);
      },
      done() {},
    };
  }
  const draw = () => latest && stream.write(`\r\x1b[2K${jobProgressLine(latest, now() - started, frame++)}`);
  const timer = setInterval(draw, 100);
  return {
    update(job) {
      latest = job;
      draw();
    },
    done() {
      clearInterval(timer);
      draw();
      if (latest) stream.write('\n');
    },
  };
}
