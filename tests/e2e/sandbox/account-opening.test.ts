/**
 * Account opening (Disbursement and Account Opening Interface) in the sandbox, with the requests a
 * partner makes: an application inquired by id along its lifecycle (PENDING, SENT, PROCESSING, then
 * CREATED or REJECTED, both final), each move one event.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { send } from "./cases.js";

let opening: MockServer;
beforeAll(async () => {
  opening = await startMock(findApi("account-opening@1.0.0"), { port: 0, sandbox: true });
});
afterAll(() => opening.close());

describe("account-opening@1.0.0", () => {
  it("an application moves PENDING -> SENT -> PROCESSING -> CREATED; CREATED is final", async () => {
    const credential = `ao-${randomUUID()}`;
    const control = sandboxControl(opening.url, credential);
    const call = (operationId: string, body: unknown) => send(opening.url, "account-opening@1.0.0", operationId, { credential, body });
    const opened = await call("openAccount", { reference_id: "ref-1", bank_code: "DUMMY_BANK", product_code: "DUMMY_PRODUCT" });
    const id = opened.body.application_id;
    for (const action of ["send", "process", "approve"]) await control.act("application", id, action);
    const status = await call("inquireApplicationStatus", { application_id: id });
    expect(status.body).toEqual({ status: "CREATED", reference_id: "ref-1" });
    expect(await control.act("application", id, "reject").catch((e) => e.status)).toBe(409);
    expect((await control.events({ resourceId: id })).map((e) => e.to)).toEqual(["SENT", "PROCESSING", "CREATED"]);
  });
});
