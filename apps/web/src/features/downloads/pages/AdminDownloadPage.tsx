import { type DownloadRow, downloadPlatformLabel } from "@burrow/contract";
import { Col, Form, Input, Row } from "antd";
import { CrudListPage } from "@/components/CrudListPage";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { fieldRules } from "@/lib/rules";
import { DownloadBuildFields } from "../components/DownloadBuildFields";
import { MirrorHint } from "../components/MirrorHint";
import { osOptions } from "../download-groups";
import { adminDownloadsQuery, createDownload, deleteDownload, downloadsKeys, updateDownload } from "../downloads.api";
import { downloadColumns } from "./AdminDownloadPage.columns";

const FILTERS = { os: "text", version: "text" } as const;

interface DownloadForm {
  os: DownloadRow["os"];
  arch: DownloadRow["arch"];
  version: string;
  url: string;
  checksum: string;
  note?: string;
  sort?: number | null;
}

const save = async (v: DownloadForm, row: DownloadRow | undefined) => {
  const body = {
    os: v.os,
    arch: v.arch,
    version: v.version.trim(),
    url: v.url.trim(),
    checksum: v.checksum.trim().toLowerCase(),
    note: v.note?.trim() ?? "",
    sort: v.sort ?? 0,
  };
  // A mirrored build's platform, link and hash are the file's own (the server refuses changes): only note and sort.
  if (row?.mirrored) await updateDownload({ id: row.id, note: body.note, sort: body.sort });
  else if (row) await updateDownload({ id: row.id, ...body });
  else await createDownload(body);
};

/** /admin/download: the frpc builds customers can download. */
export function AdminDownloadPage() {
  return (
    <CrudListPage
      title="客户端管理"
      description={<MirrorHint />}
      noun="客户端"
      filterSpec={FILTERS}
      searchFields={
        <>
          <SelectFilter name="os" label="系统" width={130} options={osOptions} />
          <TextFilter name="version" label="版本" max={40} placeholder="如：0.70.1" />
        </>
      }
      query={(filters) => adminDownloadsQuery({ ...filters, os: filters.os as DownloadRow["os"] | undefined })}
      invalidateKey={downloadsKeys.all}
      rowKey="id"
      columns={downloadColumns}
      actions={{ width: 130, compact: true }}
      deleteTitle={(row) =>
        `删除 ${downloadPlatformLabel(row.os, row.arch)} ${row.version}？${row.mirrored ? "（文件保留，重新运行 frp-mirror 会再列出）" : ""}`
      }
      onDelete={(row) => deleteDownload(row.id)}
      onSave={save}
      newValues={{ os: "linux", arch: "amd64", sort: 0 }}
      modalWidth={640}
      formFields={
        <Row gutter={16}>
          <DownloadBuildFields />
          <Col span={24}>
            <Form.Item name="note" label="说明" rules={fieldRules("说明", { length: { max: 200 } })}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
      }
    />
  );
}
