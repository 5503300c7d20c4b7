// @vitest-environment jsdom
import { HostName, IpNetText } from "@burrow/contract";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Form, type FormInstance } from "antd";
import { afterEach, describe, expect, it } from "vitest";
import { ListItem } from "./ListItem";
import { NumberItem, PortItem } from "./NumberItem";
import { SwitchItem } from "./SwitchItem";
import { TextItem } from "./TextItem";

// Unmount each form, so that nothing of antd is left running when the file's jsdom goes.
afterEach(cleanup);

/** Renders the items in a form and hands back the form, to validate values directly. */
function renderForm(items: React.ReactNode) {
  let form: FormInstance | undefined;
  function Harness() {
    const [f] = Form.useForm();
    form = f;
    return (
      <Form form={f} layout="vertical">
        {items}
      </Form>
    );
  }
  render(<Harness />);
  return form as FormInstance;
}

/** The messages of one field after validating it with `value`. */
async function errorsFor(form: FormInstance, name: string, value: unknown): Promise<string[]> {
  form.setFieldValue(name, value);
  try {
    await form.validateFields([name]);
    return [];
  } catch (e) {
    return (e as { errorFields: { errors: string[] }[] }).errorFields.flatMap((f) => f.errors);
  }
}

describe("NumberItem / PortItem", () => {
  it("checks the bounds the input shows, with the messages named by ruleLabel", async () => {
    const form = renderForm(<PortItem name="bind_port" label="绑定端口（bindPort）" ruleLabel="绑定端口" required />);
    const input = screen.getByLabelText("绑定端口（bindPort）");
    expect(input.getAttribute("aria-valuemin")).toBe("1");
    expect(input.getAttribute("aria-valuemax")).toBe("65535");
    expect(await errorsFor(form, "bind_port", undefined)).toEqual(["请输入绑定端口"]);
    expect(await errorsFor(form, "bind_port", 70000)).toEqual(["绑定端口范围为 1-65535"]);
    expect(await errorsFor(form, "bind_port", 7.5)).toEqual(["绑定端口格式不正确"]);
    expect(await errorsFor(form, "bind_port", 7000)).toEqual([]);
  });

  it("an optional field may stay empty; a fraction passes when decimals are allowed; extra rules run after", async () => {
    const form = renderForm(
      <>
        <NumberItem name="limit" label="带宽限制" min={0} max={100} precision={0} />
        <NumberItem
          name="discount"
          label="折扣"
          min={0.01}
          max={0.99}
          rules={[{ validator: (_r, v) => (v === 0.5 ? Promise.reject(new Error("不能对半")) : Promise.resolve()) }]}
        />
      </>,
    );
    expect(await errorsFor(form, "limit", undefined)).toEqual([]);
    expect(await errorsFor(form, "discount", 0.85)).toEqual([]);
    expect(await errorsFor(form, "discount", 1.5)).toEqual(["折扣范围为 0.01-0.99"]);
    expect(await errorsFor(form, "discount", 0.5)).toEqual(["不能对半"]);
  });
});

describe("TextItem", () => {
  it("checks required (first), length and the contract's schema", async () => {
    const form = renderForm(
      <TextItem name="host" label="公网地址" required length={{ max: 20 }} schema={HostName} maxLength={30} />,
    );
    const input = screen.getByLabelText("公网地址");
    expect(input.getAttribute("maxlength")).toBe("30");
    expect((await errorsFor(form, "host", "  "))[0]).toBe("请输入公网地址");
    expect(await errorsFor(form, "host", "a".repeat(25))).toContain("公网地址长度最多 20 位");
    expect((await errorsFor(form, "host", "bad host!")).length).toBe(1);
    expect(await errorsFor(form, "host", "sh1.example.com")).toEqual([]);
  });

  it("rows make a text area", () => {
    renderForm(<TextItem name="description" label="描述" rows={2} maxLength={500} showCount />);
    expect(screen.getByLabelText("描述").tagName).toBe("TEXTAREA");
  });
});

describe("SwitchItem", () => {
  it("holds a boolean", async () => {
    const form = renderForm(<SwitchItem name="on" label="启用" />);
    fireEvent.click(screen.getByRole("switch"));
    await waitFor(() => expect(form.getFieldValue("on")).toBe(true));
  });
});

describe("ListItem", () => {
  it("checks every entry with the contract's schema", async () => {
    const form = renderForm(<ListItem name="allow" label="允许列表" schema={IpNetText} ariaLabel="允许列表" />);
    expect(await errorsFor(form, "allow", ["203.0.113.0/24", "10.0.0.1"])).toEqual([]);
    expect((await errorsFor(form, "allow", ["203.0.113.0/24", "not an address"])).length).toBe(1);
    expect(await errorsFor(form, "allow", undefined)).toEqual([]);
  });
});
