import { CreateOidcProviderBody, type OidcProviderRow } from "@burrow/contract";
import { Form, Input } from "antd";
import { FormModal } from "@/components/FormModal";
import { SwitchItem } from "@/components/form/SwitchItem";
import { TextItem } from "@/components/form/TextItem";
import { fieldRules } from "@/lib/rules";
import { createOidcProvider, updateOidcProvider } from "../oidc.api";

interface ProviderForm {
  name: string;
  issuer: string;
  client_id: string;
  client_secret?: string;
  scopes: string;
  enabled: boolean;
}

/**
 * The secret's field. Editing, it may stay empty (the stored one is kept) only while the issuer and
 * the client id are the ones it was given for: the server refuses to send it anywhere else.
 */
function SecretField({ row }: { row?: OidcProviderRow }) {
  const form = Form.useFormInstance<ProviderForm>();
  const issuer = Form.useWatch("issuer", form);
  const clientId = Form.useWatch("client_id", form);
  const moved =
    !!row &&
    ((issuer !== undefined && issuer.trim() !== row.issuer) ||
      (clientId !== undefined && clientId.trim() !== row.client_id));
  const extra = !row
    ? undefined
    : moved
      ? "已更改签发者地址或 Client ID：须重新输入 Client Secret，已保存的密钥不会发给新的签发者"
      : row.has_secret
        ? "已保存，留空则不修改；更改签发者地址或 Client ID 时须重新输入"
        : undefined;
  return (
    <Form.Item
      name="client_secret"
      label="Client Secret"
      extra={extra}
      dependencies={["issuer", "client_id"]}
      rules={fieldRules("Client Secret", { required: !row || moved, length: { max: 500 } })}
    >
      <Input.Password autoComplete="new-password" placeholder={row && !moved ? "留空则不修改" : ""} />
    </Form.Item>
  );
}

/** Adds a provider, or edits `row`: the secret is sent as typed ("" keeps the stored one). */
export function OidcProviderModal({
  open,
  row,
  onSaved,
  onClose,
}: {
  open: boolean;
  row?: OidcProviderRow;
  onSaved: () => Promise<unknown>;
  onClose: () => void;
}) {
  const save = async (v: ProviderForm) => {
    const body = {
      name: v.name.trim(),
      issuer: v.issuer.trim(),
      client_id: v.client_id.trim(),
      scopes: v.scopes.trim(),
      enabled: v.enabled,
    };
    if (row) await updateOidcProvider({ id: row.id, ...body, client_secret: v.client_secret ?? "" });
    else await createOidcProvider({ ...body, client_secret: v.client_secret ?? "" });
    await onSaved();
  };

  return (
    <FormModal<ProviderForm>
      open={open}
      title={row ? "编辑登录方式" : "新增登录方式"}
      initialValues={row ? { ...row, client_secret: "" } : { scopes: "openid profile", enabled: true }}
      successText={row ? "登录方式已保存" : "登录方式已添加"}
      onSubmit={save}
      onClose={onClose}
      width={600}
    >
      <TextItem
        name="name"
        label="显示名称"
        required
        length={{ max: 32 }}
        placeholder="登录按钮显示为：使用 {名称} 登录"
      />
      <TextItem
        name="issuer"
        label="签发者地址（Issuer）"
        ruleLabel="签发者地址"
        required
        schema={CreateOidcProviderBody.shape.issuer}
        placeholder="https://accounts.example.com"
      />
      <TextItem name="client_id" label="Client ID" required length={{ max: 200 }} autoComplete="off" />
      <SecretField row={row} />
      <TextItem
        name="scopes"
        label="范围（scope）"
        ruleLabel="范围"
        required
        length={{ max: 200 }}
        placeholder="openid profile"
      />
      <SwitchItem name="enabled" label="启用" />
    </FormModal>
  );
}
