/**
 * The mock's fast path: a request whose answer Prism has already given for a request of the same
 * kind gets that answer again, without Prism's per-request pipeline (routing by score, fp-ts
 * plumbing, negotiation, example choice, validation of the example).
 *
 * - Routing: a request path that exactly one operation of the method fits (Prism's own fragment
 *   matching, templates compiled once) is that operation's, as Prism's router would decide; other
 *   cases (none, several) are left to Prism's router.
 * - Classification: the request's findings come from validate.ts, the same functions Prism's
 *   pipeline runs in this mock. They decide what Prism's mocker does with the request: a valid one
 *   (no error-severity finding) gets the operation's success answer for its `Accept`; otherwise the
 *   first 401 finding (its tags), else the first 415 finding (its message), else the rest (422/400)
 *   chooses the answer. That is the kind of the request.
 * - Answers: Prism's answer to the first request of a kind (its status, headers, body and the
 *   findings on the example) is kept per operation and kind and replayed, with the request's own
 *   findings in `sl-violations`. Where Prism's answer lists the findings in its body (its 422
 *   problem when the operation declares no 422, 400 or default response), the body is rebuilt from
 *   the request's findings with Prism's own function.
 * Requests that choose an answer (`Prefer`, `__code`/`__example`/`__dynamic`/`__seed`, `__server`)
 * and operations with callbacks always go through Prism's pipeline.
 */
import { ERROR } from "./prism-parts.js";
import type { Answer, Diagnostic, Operation, RouteFunction } from "./types.js";

/** At most this many routes (method and path) are remembered. */
const ROUTES_KEPT = 1000;
/** One operation's answers are kept for at most this many kinds (Accept values times outcomes). */
export const KINDS_KEPT = 64;

/* ------------------------------------------------------------------ routing */

// router/matchPath.js: fragments decoded; a fragment with {...} is a template matched by an unanchored regex.
function decodeFragment(fragment: string): string {
  if (!fragment.includes("%")) return fragment;
  try {
    return fragment && decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
const fragmentsOf = (path: string) => path.split("/").slice(1).map(decodeFragment);
const isTemplated = (fragment: string) => /{(.+)}/.test(fragment);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Compiled {
  op: Operation;
  fragments: Array<string | RegExp>;
}

function compile(op: Operation): Compiled | undefined {
  if (!op.path.startsWith("/")) return undefined;
  return {
    op,
    fragments: fragmentsOf(op.path).map((fragment) =>
      isTemplated(fragment) ? new RegExp(escapeRegExp(fragment).replace(/\\\{[^\\]+\\\}/g, "(.*)")) : fragment,
    ),
  };
}

function fits(compiled: Compiled, fragments: string[]): boolean {
  if (compiled.fragments.length !== fragments.length) return false;
  for (let i = 0; i < fragments.length; i++) {
    const expected = compiled.fragments[i];
    if (typeof expected === "string" ? expected !== fragments[i] : !expected.test(fragments[i])) return false;
  }
  return true;
}

export interface FastPath {
  /** The operation Prism routes `method` and `path` to, or undefined where Prism answers 404 or 405 (or fails). */
  route(method: string, path: string): Operation | undefined;
  /** The kind of a request: which of an operation's kept answers is its answer. */
  kind(accept: string, findings: Diagnostic[] | undefined): string;
  answer(op: Operation, kind: string): Answer | undefined;
  keep(op: Operation, kind: string, answer: Answer): void;
}

export function createFastPath(operations: Operation[], routeCached: RouteFunction): FastPath {
  const byMethod = new Map<string, Compiled[]>();
  const unroutable = operations.some((op) => !op.path.startsWith("/"));
  for (const op of operations) {
    const compiled = compile(op);
    if (!compiled) continue;
    const method = op.method.toLowerCase();
    if (!byMethod.has(method)) byMethod.set(method, []);
    byMethod.get(method)!.push(compiled);
  }
  const answers = new WeakMap<Operation, Map<string, Answer>>();
  /** Routes found, by method and path (null: none), the last ROUTES_KEPT distinct ones. */
  const routed = new Map<string, Operation | null>();

  /** The operation Prism routes to: the only one of the method the path fits, else Prism's ranking. */
  function routeOf(method: string, path: string): Operation | undefined {
    const candidates = byMethod.get(method);
    if (!candidates) return undefined;
    const fragments = fragmentsOf(path);
    let found: Operation | undefined;
    let count = 0;
    for (const compiled of candidates) {
      if (fits(compiled, fragments)) {
        found = compiled.op;
        count++;
      }
    }
    if (count === 1) return found;
    if (count === 0) return undefined;
    // Several operations fit: Prism's ranking decides.
    const ranked = routeCached({ resources: operations, input: { method, url: { path } } as never });
    return ranked._tag === "Right" ? ranked.right : undefined;
  }

  return {
    route(method, path) {
      if (unroutable) return undefined; // Prism's router throws on such a document: let it.
      const key = `${method} ${path}`;
      const known = routed.get(key);
      if (known !== undefined) return known ?? undefined;
      const found = routeOf(method, path);
      if (routed.size >= ROUTES_KEPT) routed.clear();
      routed.set(key, found ?? null);
      return found;
    },
    kind(accept, findings) {
      let error = false;
      let unauthorised: Diagnostic | undefined;
      let unsupported: Diagnostic | undefined;
      for (const finding of findings ?? []) {
        if (finding.severity === ERROR) error = true;
        if (finding.code === 401) unauthorised ??= finding;
        else if (finding.code === 415) unsupported ??= finding;
      }
      // mocker/index.js: any error makes the request invalid; then a 401 finding, else a 415 one, chooses the answer.
      const outcome = !error
        ? "valid"
        : unauthorised
          ? `401 ${JSON.stringify(unauthorised.tags ?? [])}`
          : unsupported
            ? `415 ${unsupported.message}`
            : "invalid";
      return `${accept}\n${outcome}`;
    },
    answer(op, kind) {
      return answers.get(op)?.get(kind);
    },
    keep(op, kind, answer) {
      let kept = answers.get(op);
      if (!kept) answers.set(op, (kept = new Map()));
      if (kept.size < KINDS_KEPT) kept.set(kind, answer);
    },
  };
}
