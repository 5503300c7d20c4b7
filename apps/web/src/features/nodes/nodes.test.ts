import type { AdminNodeRow } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { formToCreateBody, formToUpdateBody, NEW_NODE, type NodeFormValues, nodeToForm } from "./node-form";

const values: NodeFormValues = {
  ...(NEW_NODE as NodeFormValues),
  name: " 上海一号 ",
  area_id: 1,
  net_type_id: 2,
  level_id: 3,
  host: " sh1.example.com ",
  vhost_http_port: null,
  vhost_https_port: 8443,
  subdomain_host: "  ",
  api_addr: "http://10.0.0.5:7500",
  api_password: "",
  description: " 主力节点 ",
};

describe("node form → body", () => {
  it("trims text, turns blanks into null and leaves a blank password out", () => {
    const body = formToCreateBody(values);
    expect(body).toMatchObject({
      name: "上海一号",
      host: "sh1.example.com",
      bind_port: 7000,
      vhost_http_port: null,
      vhost_https_port: 8443,
      subdomain_host: null,
      port_min: 10000,
      port_max: 20000,
      description: "主力节点",
      status: 2,
    });
    expect("api_password" in body).toBe(false);
  });

  it("sends a typed password and the node id on edit", () => {
    const body = formToUpdateBody(7, { ...values, api_password: "s3cret-pass", status: -1 });
    expect(body).toMatchObject({ node_id: 7, api_password: "s3cret-pass", status: -1 });
  });

  it("round-trips a node row, off-shelf kept and the password blank", () => {
    const row = {
      node_id: 7,
      name: "n",
      area_id: 1,
      net_type_id: 1,
      level_id: 1,
      host: "h",
      bind_port: 7000,
      vhost_http_port: 80,
      vhost_https_port: null,
      subdomain_host: "frp.example.com",
      port_min: 1,
      port_max: 2,
      bandwidth: 10,
      api_addr: "http://h:7500",
      api_user: "admin",
      description: "",
      sort: 0,
      status: -1,
    } as AdminNodeRow;
    const form = nodeToForm(row);
    expect(form).toMatchObject({ status: -1, api_password: "", vhost_https_port: null });
    expect(nodeToForm({ ...row, status: 3 }).status).toBe(2);
    expect(formToUpdateBody(7, form)).toMatchObject({ subdomain_host: "frp.example.com", vhost_http_port: 80 });
  });
});
