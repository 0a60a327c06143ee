/**
 * The credentials the bench's load cycles through (scripts/bench-measure.ts `hammerCredentials`),
 * `bench-<n>` for 900 of them: in sandbox mode the requests spread over that many states, below the
 * sandbox's credential bound (src/sandbox/store/limits.ts LIMITS.credentials); a hosted bench server
 * (scripts/bench-serve.ts) issues each to a partner.
 */

/** Credentials the load cycles through. */
export const CREDENTIAL_POOL = 900;

/** The bench's `n`th credential, in turn. */
export const benchCredential = (n: number): string => `bench-${n % CREDENTIAL_POOL}`;
