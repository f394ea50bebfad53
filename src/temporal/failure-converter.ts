/**
 * The failure converter of the broker's clients, workers and workflow bundle: a failure's message
 * and stack trace travel in its `encodedAttributes` payload, so that the payload codec encrypts them
 * (a provider's error can name the customer). History then shows "Encoded failure"; the codec
 * endpoint decodes the payload for the Web UI. Loaded by path inside the workflow sandbox too: no
 * Node built-ins here.
 */
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
