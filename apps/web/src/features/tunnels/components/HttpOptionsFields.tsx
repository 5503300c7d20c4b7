import { HostHeaderRewrite, HttpLocation, HttpUser } from "@burrow/contract";
import { Divider, Form, Input, Row } from "antd";
import { HalfCol } from "@/components/form/HalfCol";
import { ListItem } from "@/components/form/ListItem";
import { TextItem } from "@/components/form/TextItem";
import { fieldRules } from "@/lib/rules";

/** An http tunnel's extra options (frpc's hostHeaderRewrite, locations, httpUser/httpPassword). */
export function HttpOptionsFields() {
  return (
    <>
      <Divider titlePlacement="start" plain>
        HTTP 附加选项
      </Divider>
      <Row gutter={16}>
        <HalfCol>
          <TextItem
            name="host_header_rewrite"
            label="Host 头重写"
            schema={HostHeaderRewrite}
            placeholder="如：127.0.0.1"
          />
        </HalfCol>
        <HalfCol>
          <ListItem
            name="locations"
            label="路由路径"
            extra="只转发这些路径，回车添加多个"
            schema={HttpLocation}
            placeholder="如：/api"
          />
        </HalfCol>
        <HalfCol>
          <TextItem
            name="http_user"
            label="访问用户名"
            extra="设置后访客需要输入用户名和密码"
            schema={HttpUser}
            autoComplete="off"
            maxLength={64}
          />
        </HalfCol>
        <HalfCol>
          <Form.Item
            name="http_password"
            label="访问密码"
            dependencies={["http_user"]}
            rules={[
              ...fieldRules("访问密码", { length: { max: 64 } }),
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  getFieldValue("http_user") && !value
                    ? Promise.reject(new Error("请输入访问密码"))
                    : Promise.resolve(),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" maxLength={64} />
          </Form.Item>
        </HalfCol>
      </Row>
    </>
  );
}
