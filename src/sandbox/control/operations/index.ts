/** The handlers of the control API's operations, one module each. */
import type { ControlHandler } from "../handler.js";
import { advanceClock } from "./advance-clock.js";
import { createError } from "./create-error.js";
import { createPartner } from "./create-partner.js";
import { deleteCallback } from "./delete-callback.js";
import { deleteErrors } from "./delete-errors.js";
import { getClock } from "./get-clock.js";
import { getHealth } from "./get-health.js";
import { getMetrics } from "./get-metrics.js";
import { getPartner } from "./get-partner.js";
import { getResource } from "./get-resource.js";
import { getSandbox } from "./get-sandbox.js";
import { getSandboxDocument } from "./get-sandbox-document.js";
import { getState } from "./get-state.js";
import { listCallbacks } from "./list-callbacks.js";
import { listDeliveries } from "./list-deliveries.js";
import { listErrors } from "./list-errors.js";
import { listEvents } from "./list-events.js";
import { listPartners } from "./list-partners.js";
import { listStates } from "./list-states.js";
import { registerCallback } from "./register-callback.js";
import { resetAllStates } from "./reset-all-states.js";
import { resetState } from "./reset-state.js";
import { deletePartner } from "./delete-partner.js";
import { sendEventAgain } from "./send-event-again.js";
import { updatePartner } from "./update-partner.js";
import { updateResourceStatus } from "./update-resource-status.js";
import { updateResourceWithAction } from "./update-resource-with-action.js";

export const HANDLERS: readonly ControlHandler[] = [
  getSandboxDocument,
  getSandbox,
  getState,
  resetState,
  listStates,
  resetAllStates,
  getResource,
  updateResourceStatus,
  updateResourceWithAction,
  listEvents,
  sendEventAgain,
  listCallbacks,
  registerCallback,
  deleteCallback,
  listDeliveries,
  getClock,
  advanceClock,
  listErrors,
  createError,
  deleteErrors,
  getHealth,
  getMetrics,
  listPartners,
  createPartner,
  getPartner,
  updatePartner,
  deletePartner,
];
