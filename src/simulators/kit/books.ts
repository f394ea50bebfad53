import express from 'express';

/**
 * How a simulated provider's books (what its transaction list answers) differ from what it told
 * the broker about one order: the order left out, or listed with another status or amount. Only the
 * list shows them; the order's status answers and webhooks stay as they were, as when a provider's
 * records change after the broker stopped listening (a chargeback, a correction) or lose one. (A
 * provider whose status answers are its list, as Onramp.money's merchantHistory is, shows them in
 * both: it has one record.)
 */
export interface BookSwitches {
  /** The transaction is not listed at all. */
  dropped?: boolean;
  /** The status the list shows, in the provider's own words (or code). */
  status?: string;
  /** The fiat amount the list shows, a decimal string, in the provider's own field for it. */
  fiatAmount?: string;
}

/** A transaction only the provider's books hold: made by someone the broker never saw. */
export interface PhantomRequest {
  /** The broker order id it carries as partner reference (an order the broker does not have), or none. */
  reference?: string;
  /** The provider's status for it, in its own words (or code); the simulator's completed one when absent. */
  status?: string;
}

/** What a simulator that lists transactions adds for a phantom: the id it gave the transaction. */
export type PhantomMaker = (request: PhantomRequest) => { id: string } | undefined;

const DECIMAL = /^\d{1,12}(\.\d{1,8})?$/;
/** A status in the provider's own words, or its own code (Onramp.money's statuses are integers, e.g. -4). */
const WORD = /^([A-Za-z_]{1,40}|-?\d{1,9})$/;
const REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;

/** The switches of a JSON body that are well formed; anything else is left out. */
export function pickBookSwitches(body: unknown): BookSwitches {
  const input = (body ?? {}) as Record<string, unknown>;
  const out: BookSwitches = {};
  if (typeof input.dropped === 'boolean') out.dropped = input.dropped;
  if (typeof input.status === 'string' && WORD.test(input.status)) out.status = input.status;
  if (typeof input.fiatAmount === 'string' && DECIMAL.test(input.fiatAmount)) out.fiatAmount = input.fiatAmount;
  return out;
}

/**
 * The books switches of one simulator, by the broker order id (the reference) each transaction was
 * made for. Mounted at /_simulator: `POST /books/:reference` sets one order's switches (`{}`: none),
 * `GET /books/:reference` reads them, `POST /books` with `{ "phantom": {...} }` adds a transaction
 * only the books hold (404 from a simulator that lists none).
 */
export class SimulatedBooks {
  private readonly switches = new Map<string, BookSwitches>();
  private phantomMaker: PhantomMaker | undefined;

  /** What the list shows of the transaction made for `reference`: undefined, as it is. */
  of(reference: string | null | undefined): BookSwitches | undefined {
    return reference == null ? undefined : this.switches.get(reference);
  }

  /** Whether the list leaves out the transaction made for `reference`. */
  drops(reference: string | null | undefined): boolean {
    return this.of(reference)?.dropped === true;
  }

  /** Set by a simulator whose list API the broker reads: it makes phantoms. */
  makePhantomsWith(maker: PhantomMaker): void {
    this.phantomMaker = maker;
  }

  router(): express.Router {
    const router = express.Router();
    router.get('/books/:reference', (req, res) => void res.json(this.switches.get(req.params.reference) ?? {}));
    router.post('/books/:reference', express.json(), (req, res) => {
      const next = pickBookSwitches(req.body);
      if (Object.keys(next).length === 0) this.switches.delete(req.params.reference);
      else this.switches.set(req.params.reference, next);
      res.json(next);
    });
    router.post('/books', express.json(), (req, res) => {
      if (!this.phantomMaker) return void res.status(404).json({ error: 'this simulator lists no transactions' });
      const input = ((req.body ?? {}) as { phantom?: Record<string, unknown> }).phantom ?? {};
      const request: PhantomRequest = {};
      if (typeof input.reference === 'string' && REFERENCE.test(input.reference)) request.reference = input.reference;
      if (typeof input.status === 'string' && WORD.test(input.status)) request.status = input.status;
      const made = this.phantomMaker(request);
      if (!made) return void res.status(400).json({ error: 'the simulator has no such status' });
      res.status(201).json(made);
    });
    return router;
  }
}
