import { ErrorCode, ProcessStatus } from "@burrow/contract";
import { RiArrowLeftLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Space } from "antd";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError } from "@/api/client";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { ALL, userNodeListQuery } from "@/features/nodes/nodes.api";
import { myVerifyQuery } from "@/features/verify/verify.api";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { TunnelFields } from "../components/TunnelFields";
import { NEW_TUNNEL, TUNNEL_FIELD_MAP, type TunnelFormValues, toCreateBody } from "../tunnel-form";
import { createTunnel, tunnelsKeys } from "../tunnels.api";

/** /tun/list/add: a new tunnel on one of the nodes the plan allows. */
export function TunnelCreatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [form] = Form.useForm<TunnelFormValues>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const nodes = useQuery(userNodeListQuery(ALL));
  const verify = useQuery(myVerifyQuery());
  const needsVerify = verify.data?.required_for_tunnels === true && verify.data.status !== ProcessStatus.Done;
  const preset = Number(params.get("node_id")) || undefined;

  const create = useMutation({
    mutationFn: createTunnel,
    meta: { silentError: true },
    onSuccess: async (tunnel) => {
      feedback.success("隧道已创建");
      await queryClient.invalidateQueries({ queryKey: tunnelsKeys.lists() });
      void navigate(`/tun/list/${tunnel.tun_id}`);
    },
    onError: (error) => {
      // 2001: a plan limit (tunnel count, ports per tunnel, bandwidth, node level) — the message names it.
      if (error instanceof ApiError && error.code === ErrorCode.BusinessRefused) setRefusal(error.message);
      else showFormError(form, error, TUNNEL_FIELD_MAP);
    },
  });

  const back = (
    <LinkButton icon={<RiArrowLeftLine size={16} />} to="/tun/list">
      返回列表
    </LinkButton>
  );

  return (
    <PageContainer
      title="创建隧道"
      extra={back}
      description={
        <>
          不确定选哪种类型？见 <Link to="/doc/tunnels">隧道类型说明</Link>；使用自己的域名见{" "}
          <Link to="/doc/custom-domains">自定义域名</Link>。
        </>
      }
    >
      <Card>
        {nodes.data && !nodes.data.list.length ? (
          <Alert
            className="form-alert"
            type="info"
            showIcon
            title="暂无可用节点"
            description={
              <>
                当前套餐没有可用的节点，请先 <Link to="/purchase/plan">购买或升级套餐</Link>。
              </>
            }
          />
        ) : null}
        {needsVerify ? (
          <Alert
            className="form-alert"
            type="warning"
            showIcon
            title="请先完成实名认证"
            description={
              <>
                创建隧道前需要完成实名认证，<Link to="/account/verify">前往实名认证</Link>。
              </>
            }
          />
        ) : null}
        {refusal ? (
          <Alert
            className="form-alert"
            type="warning"
            showIcon
            closable={{ onClose: () => setRefusal(null) }}
            title="无法创建隧道"
            description={
              <>
                {refusal}。
                {refusal.includes("实名") ? (
                  <Link to="/account/verify">前往实名认证</Link>
                ) : (
                  <Link to="/purchase/plan">升级套餐</Link>
                )}
              </>
            }
          />
        ) : null}
        <Form<TunnelFormValues>
          form={form}
          layout="vertical"
          initialValues={{ ...NEW_TUNNEL, node_id: preset }}
          onFinish={(values) => {
            setRefusal(null);
            create.mutate(toCreateBody(values));
          }}
        >
          <TunnelFields mode="create" nodes={nodes.data?.list ?? []} nodesLoading={nodes.isPending} />
          <Space>
            <Button type="primary" htmlType="submit" loading={create.isPending}>
              创建隧道
            </Button>
            <LinkButton to="/tun/list">取消</LinkButton>
          </Space>
        </Form>
      </Card>
    </PageContainer>
  );
}
