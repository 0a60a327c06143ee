/**
 * The partners of a hosted sandbox: who the operator issued a credential to. In hosted mode only an
 * issued credential is served; any other gets the 401 its API declares and creates nothing.
 *
 * - Issuing (`POST /_sandbox/partners` with `{"name": ...}`): a new id and a credential made of 32
 *   random bytes behind a recognisable prefix (CREDENTIAL_PREFIX, so that a secret scanner and a
 *   reader of a log know one), shown once in the answer. Only its SHA-256 (hex) is kept: the same
 *   key the sandbox keeps a credential's state under (src/sandbox/store/state.ts `credentialKey`).
 * - Listing: id, name, creation time, the quotas in force and which the operator set; never a
 *   credential nor its hash.
 * - Revoking: the partner is removed from the store; its credential is refused from the next request.
 * - Updating (`PATCH /_sandbox/partners/{id}`, a JSON merge patch): its name, its quotas (an
 *   operator's overrides over the defaults, ./quotas.ts, kept with the partner; `null` puts one back).
 *
 * What the operator sends and sees is in the control API's names (snake_case, ./quotas.ts `field`).
 *
 * Partners live in a `PartnerStore`: the partner methods of the sandbox's durable stores
 * (src/sandbox/store/backend.ts `DurableBackend`), so that they live wherever the sandbox's state
 * does; `MemoryPartnerStore` is the store of the memory sandbox (nothing kept across a restart).
 */
import { randomBytes } from "node:crypto";
import { credentialKey } from "../sandbox/store/state.js";
import type { DurableBackend, PartnerRow } from "../sandbox/store/backend.js";
import { effectiveQuotas, parseQuotas, patchQuotas, type Quotas, QuotaError, quotasView } from "./quotas.js";

export type { PartnerRow };

/** Where partners are kept: exactly the partner methods of a durable store. */
export type PartnerStore = Pick<DurableBackend, "putPartner" | "deletePartner" | "listPartners" | "partnerByCredential">;

/** What every issued credential starts with. */
export const CREDENTIAL_PREFIX = "bacsbx_";
/** An issued credential, as it appears anywhere (the log's scrubbing looks for it). */
export const CREDENTIAL_PATTERN = /bacsbx_[A-Za-z0-9_-]{43}/g;

export const PARTNER_BOUNDS = {
  /** Characters of a partner's name (after trimming). */
  nameLength: 100,
  /** Partners per sandbox. */
  partners: 1000,
} as const;

/** SHA-256 of a credential's value, hex: the key its partner and its state are kept under (the sandbox's own). */
export { credentialKey };

/** A partner as the operator sees it (the control API's Partner): never its credential nor the credential's hash. */
export interface PartnerView {
  id: string;
  name: string;
  created_at: string;
  /** The quotas in force: the defaults and the operator's overrides, by their control API names. */
  quotas: Record<string, number>;
  /** The quotas the operator set (the others are at their defaults). */
  overridden: string[];
}

/** What issuing answers: the partner and, this once, its credential. */
export interface IssuedPartner extends PartnerView {
  credential: string;
}

/** A request the operator must correct: `field` names the member, `status` the answer (400, or 409 at the partner limit). */
export class PartnerError extends Error {
  override readonly name = "PartnerError";
  constructor(
    readonly field: string,
    message: string,
    readonly status: 400 | 409 = 400,
  ) {
    super(`${field}: ${message}`);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** A partner's members are `name` and `quotas`: anything else is refused, naming it. */
function checkMembers(body: Record<string, unknown>): void {
  for (const member of Object.keys(body))
    if (member !== "name" && member !== "quotas")
      throw new PartnerError(member.slice(0, 64), "is not a member of a partner (name, quotas)");
}

/** Control characters (C0, DEL, C1) and the line and paragraph separators: a name is shown on one line. */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;

/** A name as the operator sends it: a string of 1 to PARTNER_BOUNDS.nameLength printable characters, trimmed. */
function parseName(value: unknown): string {
  if (typeof value !== "string") throw new PartnerError("name", "is required: a string naming the partner");
  const name = value.trim();
  if (name === "") throw new PartnerError("name", "must not be empty");
  if ([...name].length > PARTNER_BOUNDS.nameLength)
    throw new PartnerError("name", `must have at most ${PARTNER_BOUNDS.nameLength} characters`);
  if (UNPRINTABLE.test(name)) throw new PartnerError("name", "must not hold control characters");
  return name;
}

const view = (row: PartnerRow): PartnerView => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt,
  quotas: quotasView(effectiveQuotas(row.quotas)),
  overridden: Object.keys(quotasView(row.quotas ?? {})),
});

export interface PartnersOptions {
  /** Partners at most (default PARTNER_BOUNDS.partners). */
  maxPartners?: number;
  /** Random bytes (tests). */
  random?: (size: number) => Buffer;
  /** The time (tests). */
  now?: () => Date;
}

/** The partners of one hosted sandbox, over its store. */
export class Partners {
  private readonly maxPartners: number;
  private readonly random: (size: number) => Buffer;
  private readonly now: () => Date;
  /** Issues and updates one at a time: two at once cannot both take the last place, nor one undo the other's change. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly store: PartnerStore,
    options: PartnersOptions = {},
  ) {
    this.maxPartners = options.maxPartners ?? PARTNER_BOUNDS.partners;
    this.random = options.random ?? randomBytes;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Issues a credential to a new partner, from the operator's JSON body (`name`, optional `quotas`).
   * Throws PartnerError naming the member at fault, or (409) at the partner limit.
   */
  issue(body: unknown): Promise<IssuedPartner> {
    return this.serial(() => this.issueNow(body));
  }

  /** `work` once the writes before it are done. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const done = this.writing.then(work);
    this.writing = done.catch(() => {});
    return done;
  }

  private async issueNow(body: unknown): Promise<IssuedPartner> {
    if (!isPlainObject(body)) throw new PartnerError("body", 'must be a JSON object such as {"name": "Acme Ltd"}');
    checkMembers(body);
    const name = parseName(body.name);
    const quotas = body.quotas === undefined ? undefined : this.quotas(body.quotas);
    if ((await this.store.listPartners()).length >= this.maxPartners)
      throw new PartnerError("partners", `this sandbox has its ${this.maxPartners} partners: revoke one first`, 409);
    const credential = CREDENTIAL_PREFIX + this.random(32).toString("base64url");
    const row: PartnerRow = {
      id: `ptn_${this.random(12).toString("hex")}`,
      name,
      credentialKey: credentialKey(credential),
      createdAt: this.now().toISOString(),
      ...(quotas && Object.keys(quotas).length > 0 ? { quotas } : {}),
    };
    await this.store.putPartner(row);
    return { ...view(row), credential };
  }

  /** Every partner, oldest first; never a credential. */
  async list(): Promise<PartnerView[]> {
    const rows = await this.store.listPartners();
    return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(view);
  }

  /** Revokes a partner's credential; false when there was no such partner. */
  revoke(id: string): Promise<boolean> {
    return this.store.deletePartner(id);
  }

  /**
   * Applies the operator's JSON merge patch (`{"name": ..., "quotas": {...}}`; a quota `null` goes
   * back to its default, `"quotas": null` puts them all back) to a partner. Undefined when there is
   * no such partner; throws PartnerError naming the member at fault.
   */
  update(id: string, patch: unknown): Promise<PartnerView | undefined> {
    return this.serial(() => this.updateNow(id, patch));
  }

  private async updateNow(id: string, patch: unknown): Promise<PartnerView | undefined> {
    if (!isPlainObject(patch)) throw new PartnerError("body", 'must be a JSON object such as {"quotas": {"records": 5000}}');
    checkMembers(patch);
    const name = patch.name === undefined ? undefined : parseName(patch.name);
    const row = (await this.store.listPartners()).find((p) => p.id === id);
    if (!row) return undefined;
    const updated: PartnerRow = { ...row, ...(name === undefined ? {} : { name }) };
    if (patch.quotas !== undefined) {
      const quotas = this.checked(() => patchQuotas(row.quotas, patch.quotas));
      if (Object.keys(quotas).length > 0) updated.quotas = quotas;
      else delete updated.quotas;
    }
    await this.store.putPartner(updated);
    return view(updated);
  }

  /** The partner of id `id`, as the operator sees it; undefined when there is none. */
  async get(id: string): Promise<PartnerView | undefined> {
    const row = (await this.store.listPartners()).find((p) => p.id === id);
    return row && view(row);
  }

  /** The partner holding credential `value` (its key taken here), or undefined: the value is not issued, or revoked. */
  byCredential(value: string): Promise<PartnerRow | undefined> {
    return this.store.partnerByCredential(credentialKey(value));
  }

  /** The partner whose credential has this key (`credentialKey`, as the sandbox computes it for its state). */
  byKey(key: string): Promise<PartnerRow | undefined> {
    return this.store.partnerByCredential(key);
  }

  /** The quotas in force for a partner: its overrides over the defaults. */
  quotasOf(partner: Pick<PartnerRow, "quotas">): Quotas {
    return effectiveQuotas(partner.quotas);
  }

  private quotas(value: unknown): Partial<Quotas> {
    return this.checked(() => parseQuotas(value));
  }

  /** `parse`'s quotas; its QuotaError as the PartnerError naming the same member. */
  private checked(parse: () => Partial<Quotas>): Partial<Quotas> {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof QuotaError)) throw error;
      throw new PartnerError(error.field, error.message.slice(error.field.length + 2));
    }
  }
}

/** Partners in memory: the memory sandbox's store (nothing is kept across a restart). */
export class MemoryPartnerStore implements PartnerStore {
  private readonly byId = new Map<string, PartnerRow>();
  private readonly idByKey = new Map<string, string>();

  async putPartner(partner: PartnerRow): Promise<void> {
    const previous = this.byId.get(partner.id);
    if (previous) this.idByKey.delete(previous.credentialKey);
    const holder = this.idByKey.get(partner.credentialKey);
    if (holder !== undefined && holder !== partner.id) throw new Error(`partner ${partner.id}: its credential key is another partner's`);
    // Kept frozen: handed out as it is on every request (no copy), and no caller can change it.
    const copy = structuredClone(partner);
    if (copy.quotas) Object.freeze(copy.quotas);
    this.byId.set(partner.id, Object.freeze(copy));
    this.idByKey.set(partner.credentialKey, partner.id);
  }

  async deletePartner(id: string): Promise<boolean> {
    const row = this.byId.get(id);
    if (!row) return false;
    this.byId.delete(id);
    this.idByKey.delete(row.credentialKey);
    return true;
  }

  async listPartners(): Promise<PartnerRow[]> {
    return [...this.byId.values()];
  }

  async partnerByCredential(key: string): Promise<PartnerRow | undefined> {
    const id = this.idByKey.get(key);
    const row = id === undefined ? undefined : this.byId.get(id);
    return row;
  }
}
