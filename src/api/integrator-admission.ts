import type { RequestHandler } from 'express';
import { integratorOf } from './auth';
import { rateLimitRefusals } from '../metrics/metrics';
import { ProblemError } from './problem';

interface Waiter {
  start: () => void;
  /** Its client went away before its turn: skipped. */
  gone: boolean;
  started: boolean;
}

interface Lane {
  running: number;
  queue: Waiter[];
}

export interface AdmissionSettings {
  /** Requests of one integrator worked on at once by this process (API_INTEGRATOR_CONCURRENCY). */
  concurrency: number;
  /** Requests of one integrator that may wait for one of those places; one more is refused with 429. */
  queued: number;
}

/**
 * Each integrator's requests, worked on at most `concurrency` at a time by this process: the others
 * wait in the integrator's own first-in, first-out line, without costing anything until their turn.
 * A burst of one integrator is so spread over time instead of taking the event loop from every
 * other integrator at once (docs/security.md, "Availability between integrators"). A request whose
 * client goes away while it waits leaves the line; a place is given back when its answer is sent or
 * its connection closes.
 */
export function integratorAdmission({ concurrency, queued }: AdmissionSettings): RequestHandler {
  const lanes = new Map<string, Lane>();
  const release = (id: string, lane: Lane) => {
    for (let next = lane.queue.shift(); next; next = lane.queue.shift()) {
      if (next.gone) continue;
      next.start();
      return;
    }
    lane.running--;
    if (lane.running === 0) lanes.delete(id);
  };
  return function admitIntegrator(req, res, next) {
    const { id } = integratorOf(req);
    let lane = lanes.get(id);
    if (!lane) lanes.set(id, (lane = { running: 0, queue: [] }));
    const admitted = lane;
    const onDone = () => release(id, admitted);
    if (admitted.running < concurrency) {
      admitted.running++;
      res.once('close', onDone);
      next();
      return;
    }
    if (admitted.queue.length >= queued) {
      rateLimitRefusals.inc({ limiter: 'integrator_concurrency', key_class: 'integrator' });
      next(
        new ProblemError('rate_limited', 'Too many requests of this API key at once; try again shortly.', undefined, {
          'Retry-After': '1',
        }),
      );
      return;
    }
    const waiter: Waiter = {
      gone: false,
      started: false,
      // The place is handed over by the request that ended: `running` already counts this one.
      start: () => {
        waiter.started = true;
        res.once('close', onDone);
        next();
      },
    };
    res.once('close', () => {
      if (!waiter.started) waiter.gone = true;
    });
    admitted.queue.push(waiter);
  };
}
