import { endpoint } from "../endpoint";

/** The API's own reference: the OpenAPI document generated from this table, and a page to read it. */
export const ApidocsApi = {
  getOpenapiJson: endpoint<null>()({
    method: "GET",
    url: "/openapi.json",
    access: "public",
    summary: "this API as an OpenAPI 3.1 document, generated from the contract's endpoint table",
    raw: "file",
  }),
  getDocs: endpoint<null>()({
    method: "GET",
    url: "/docs",
    access: "public",
    summary: "a readable reference of every endpoint, for operators and integrators",
    raw: "text",
  }),
} as const;
