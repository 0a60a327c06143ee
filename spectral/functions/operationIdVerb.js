/**
 * operationId is camelCase and its first word is one of the allowed verbs.
 * Given: an operation object. Options: { verbs: string[] } (the list lives in spectral/ruleset.yaml).
 * A missing operationId is reported too, so webhooks get the check that spectral:oas only does for paths.
 */
const CAMEL_CASE = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*$/;

export default function operationIdVerb(operation, options, context) {
  const id = operation?.operationId;
  if (typeof id !== "string" || id === "") {
    return [{ message: "The operation has no operationId", path: context.path }];
  }
  const path = [...context.path, "operationId"];
  if (!CAMEL_CASE.test(id)) return [{ message: `operationId "${id}" is not camelCase`, path }];
  const verb = /^[a-z0-9]+/.exec(id)[0];
  if (!options.verbs.includes(verb)) {
    return [{ message: `operationId "${id}" starts with "${verb}", which is not an allowed verb (${options.verbs.join(", ")})`, path }];
  }
  return [];
}
