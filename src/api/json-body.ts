import express from 'express';

/**
 * The JSON body parser, mounted on the routes that take a body rather than on all of /api, so that
 * GET requests (most of the traffic) do not pass through it and a request without a valid API key is
 * refused before its body is read.
 */
export const jsonBody = express.json({ limit: '64kb', type: ['application/json', 'application/*+json'] });
