/**
 * PUT /_sandbox/callbacks/{webhook} (registerCallback): the URL the provider's dashboard would hold
 * for a webhook, for the caller: an absolute http(s) URL without userinfo, within LIMITS.urlLength,
 * that the callback policy (../../targets.ts) allows.
 */
import { displayUrl, hasUserinfo } from "../../delivery/policy.js";
import { LIMITS } from "../../store/limits.js";
import { TargetRefused } from "../../targets.js";
import { ControlError } from "../errors.js";
import { type ControlHandler, onState, requireWebhook } from "../handler.js";

export const registerCallback: ControlHandler = {
  operationId: "registerCallback",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const { engine } = call;
      const webhook = requireWebhook(engine, call.param("webhook"));
      const url: string = call.body.url;
      if (url.length > LIMITS.urlLength) throw new ControlError(400, `url is longer than ${LIMITS.urlLength} characters`, "url");
      const shown = displayUrl(url);
      if (!shown) {
        const redacted = url.slice(0, 100).replace(/\/\/[^/@]*@/, "//");
        throw new ControlError(400, `url must be an absolute http(s) URL, got ${JSON.stringify(redacted)}`, "url");
      }
      if (hasUserinfo(url))
        throw new ControlError(400, "url must not carry a user name or password (the sandbox does not send them)", "url");
      try {
        engine.deliverer.targets.check(url);
      } catch (error) {
        if (error instanceof TargetRefused) throw new ControlError(400, error.message, "url");
        throw error;
      }
      state.setCallbackUrl(webhook, url);
      return { status: 200, body: { webhook, url: shown } };
    }),
};
