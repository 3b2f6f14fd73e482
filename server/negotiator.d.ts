// The part of negotiator (an Accept-Encoding header's choice, as the compression middleware makes it)
// server/page-compression.ts uses; the package ships no types of its own, and @types/negotiator
// describes version 0.6, without the preferred order.
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';
  export default class Negotiator {
    constructor(request: IncomingMessage);
    /** The encoding of `available` the request accepts best; among equals, the first of `preferred`. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
}
