/** GET /_sandbox/openapi.yaml (getSandboxDocument): the control API's own document, without a credential. */
import { controlDocumentText } from "../document.js";
import type { ControlHandler } from "../handler.js";

export const getSandboxDocument: ControlHandler = {
  operationId: "getSandboxDocument",
  access: "public",
  handle: () => ({ status: 200, text: controlDocumentText(), contentType: "application/yaml; charset=utf-8" }),
};
