import * as Schema from "effect/Schema"
import { api } from "./api.ts"
import { ApiFailure, type Endpoint } from "./endpoint.ts"

type JsonObject = Record<string, unknown>

/** JSON Schema of one schema, with its definitions collected into the shared components. */
const jsonSchema = (schema: Schema.Top, components: JsonObject): JsonObject => {
  const document = Schema.toJsonSchemaDocument(schema)
  Object.assign(components, document.definitions)
  return JSON.parse(JSON.stringify(document.schema).replaceAll("#/$defs/", "#/components/schemas/")) as JsonObject
}

const failureResponse = (description: string, components: JsonObject) => ({
  description,
  content: { "application/json": { schema: jsonSchema(ApiFailure, components) } }
})

const queryParameters = (schema: Schema.Top, components: JsonObject) => {
  const json = jsonSchema(schema, components) as { properties?: JsonObject; required?: ReadonlyArray<string> }
  return Object.keys(json.properties ?? {}).map((key) => ({
    name: key,
    in: "query",
    required: json.required?.includes(key) ?? false,
    schema: { type: "string" }
  }))
}

const operation = (name: string, e: Endpoint, components: JsonObject): JsonObject => {
  const parameters = [
    ...(e.params === undefined
      ? []
      : Object.keys((jsonSchema(e.params, components).properties ?? {}) as JsonObject).map((key) => ({
          name: key,
          in: "path",
          required: true,
          schema: { type: "string" }
        }))),
    ...(e.query === undefined ? [] : queryParameters(e.query, components))
  ]
  return {
    operationId: name,
    summary: e.summary,
    tags: [e.path.split("/")[2] ?? "root"],
    ...(e.access === "anyone" ? {} : { security: [{ Token: [] }], "x-access": e.access }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(e.body === undefined
      ? {}
      : { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(e.body, components) } } } }),
    responses: {
      200: { description: "OK", content: { "application/json": { schema: jsonSchema(e.response, components) } } },
      400: failureResponse("Invalid input (resultCode 19)", components),
      ...(e.access === "anyone" ? {} : { 403: failureResponse("No session, or not allowed", components) }),
      429: failureResponse("Too many requests", components)
    }
  }
}

/** The OpenAPI 3.1 document of the whole contract. */
export const openApiDocument = (info: { title: string; version: string }): JsonObject => {
  const components: JsonObject = {}
  const paths: Record<string, JsonObject> = {}
  for (const [name, e] of Object.entries(api) as Array<[string, Endpoint]>) {
    paths[e.path] = { ...paths[e.path], [e.method.toLowerCase()]: operation(name, e, components) }
  }
  return {
    openapi: "3.1.0",
    info,
    paths,
    components: {
      schemas: components,
      securitySchemes: { Token: { type: "apiKey", in: "header", name: "Token" } }
    }
  }
}
