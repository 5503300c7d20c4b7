import { type AdminUserRow, fenToYuan, RoleLabel, UserStatusLabel } from "@burrow/contract";
import { RiRefreshLine, RiSearchLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Col, DatePicker, Form, InputNumber, Row, Space } from "antd";
import type { Dayjs } from "dayjs";
import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { customerPath, linkActionColumn, statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { dayjs } from "@/lib/dayjs";
import { labelOptions } from "@/lib/options";
import { fieldRules } from "@/lib/rules";
import { RoleTag, UserStatusTag } from "../components/UserTags";
import { filtersFromSearch, filtersToSearch } from "../filters";
import { userListQuery } from "../usermgr.api";

interface SearchForm {
  phone?: string;
  uid?: number | null;
  status?: number;
  role?: number;
  dates?: [Dayjs, Dayjs] | null;
}

const columns: ResponsiveColumns<AdminUserRow> = [
  {
    title: "UID",
    priority: 3,
    dataIndex: "uid",
    width: 90,
    render: (uid: number) => <Link to={customerPath(uid)}>{uid}</Link>,
  },
  { title: "手机号", role: "title", dataIndex: "phone", width: 140 },
  { title: "昵称", priority: 3, dataIndex: "nickname", ellipsis: true },
  { title: "角色", priority: 2, dataIndex: "role", width: 100, render: (role: number) => <RoleTag role={role} /> },
  statusColumn("status", 100, (status: number) => <UserStatusTag status={status} />),
  {
    title: "余额（元）",
    priority: 2,
    dataIndex: "balance",
    width: 120,
    align: "right",
    render: (fen: number) => fenToYuan(fen),
  },
  timeColumn("注册时间", "created_at", { priority: 4, width: 180 }),
  timeColumn("最后登录", "last_login_at", { priority: 3, width: 180 }),
  linkActionColumn("详情", (row) => customerPath(row.uid)),
];

/** /admin/usermgr/list: users with filters (kept in the URL) and server-side paging. */
export function UserListPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromSearch(params);
  const [form] = Form.useForm<SearchForm>();
  const { data, isFetching } = useQuery(userListQuery(filters));

  const initialValues: SearchForm = {
    phone: filters.phone,
    uid: filters.uid ?? null,
    status: filters.status,
    role: filters.role,
    dates: filters.start_date && filters.end_date ? [dayjs(filters.start_date), dayjs(filters.end_date)] : null,
  };

  // Back/forward change the URL without remounting: keep the form in step with it.
  const searchKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL string stands for every filter
  useEffect(() => form.setFieldsValue(initialValues), [form, searchKey]);

  const search = (values: SearchForm) => {
    setParams(
      filtersToSearch({
        page: 1,
        size: filters.size,
        phone: values.phone?.trim() || undefined,
        uid: values.uid ?? undefined,
        status: values.status,
        role: values.role,
        start_date: values.dates?.[0]?.format("YYYY-MM-DD"),
        end_date: values.dates?.[1]?.format("YYYY-MM-DD"),
      }),
    );
  };

  const reset = () => {
    form.setFieldsValue({ phone: undefined, uid: null, status: undefined, role: undefined, dates: null });
    setParams(new URLSearchParams());
  };

  return (
    <PageContainer title="用户管理">
      <Card className="search-card">
        <Form form={form} layout="vertical" initialValues={initialValues} onFinish={search}>
          <Row gutter={16}>
            <Col xs={24} sm={12} lg={8} xl={6}>
              <TextFilter name="phone" label="手机号" max={20} placeholder="支持部分号码" />
            </Col>
            <Col xs={24} sm={12} lg={8} xl={6}>
              <Form.Item name="uid" label="UID" rules={fieldRules("UID", { integer: true, range: { min: 1 } })}>
                <InputNumber min={1} precision={0} style={{ width: "100%" }} placeholder="用户 UID" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} lg={8} xl={6}>
              <SelectFilter name="status" label="状态" options={labelOptions(UserStatusLabel)} />
            </Col>
            <Col xs={24} sm={12} lg={8} xl={6}>
              <SelectFilter name="role" label="角色" options={labelOptions(RoleLabel)} />
            </Col>
            <Col xs={24} sm={12} lg={8} xl={6}>
              <Form.Item name="dates" label="注册日期">
                <DatePicker.RangePicker style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} lg={8} xl={6} className="search-actions">
              <Form.Item label=" " colon={false}>
                <Space>
                  <Button type="primary" htmlType="submit" icon={<RiSearchLine size={16} />}>
                    查询
                  </Button>
                  <Button onClick={reset} icon={<RiRefreshLine size={16} />}>
                    重置
                  </Button>
                </Space>
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Card>
      <Card>
        <ResponsiveTable<AdminUserRow>
          rowKey="uid"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          onRow={(row) => ({
            onClick: (e) => {
              // Let links and buttons inside the row do their own thing.
              if ((e.target as HTMLElement).closest("a,button")) return;
              void navigate(customerPath(row.uid));
            },
            className: "clickable-row",
          })}
          pagination={{
            current: filters.page,
            pageSize: filters.size,
            total: data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page, size) =>
              setParams(filtersToSearch({ ...filters, page: size === filters.size ? page : 1, size })),
          }}
        />
      </Card>
    </PageContainer>
  );
}
