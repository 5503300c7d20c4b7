import { CreateDownloadBody } from "@burrow/contract";
import { Alert, Col, Form, Select } from "antd";
import { TextItem } from "@/components/form/TextItem";
import { SortField } from "@/components/SortField";
import { fieldRules } from "@/lib/rules";
import { archOptions, osOptions } from "../download-groups";

const half = { xs: 24, sm: 12 };

/** The fields a mirrored build keeps (frp-mirror maintains them): shown, not editable. */
export function DownloadBuildFields() {
  const mirrored = Form.useWatch("mirrored", { preserve: true }) === true;
  return (
    <>
      {mirrored ? (
        <Col span={24}>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="控制台镜像的构建由 frp-mirror 命令维护，这里只能修改说明和排序"
          />
        </Col>
      ) : null}
      <Col {...half}>
        <Form.Item name="os" label="系统" rules={fieldRules("系统", { required: true, choice: true })}>
          <Select options={osOptions} disabled={mirrored} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="arch" label="架构" rules={fieldRules("架构", { required: true, choice: true })}>
          <Select options={archOptions} disabled={mirrored} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <TextItem
          name="version"
          label="版本"
          required
          schema={CreateDownloadBody.shape.version}
          placeholder="0.70.1"
          disabled={mirrored}
        />
      </Col>
      <Col {...half}>
        <SortField />
      </Col>
      <Col span={24}>
        <TextItem
          name="url"
          label="下载地址"
          required
          schema={CreateDownloadBody.shape.url}
          placeholder="https://…/frp_0.70.1_linux_amd64.tar.gz"
          disabled={mirrored}
        />
      </Col>
      <Col span={24}>
        <TextItem
          name="checksum"
          label="SHA-256 校验和"
          ruleLabel="校验和"
          required
          schema={CreateDownloadBody.shape.checksum}
          maxLength={64}
          placeholder="64 位十六进制"
          disabled={mirrored}
        />
      </Col>
    </>
  );
}
