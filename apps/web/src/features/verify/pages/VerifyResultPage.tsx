import { ProcessStatus } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Result } from "antd";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { verifyResultQuery } from "../verify.api";

/**
 * /account/verify/{result}: where the provider (or the form) sends the customer. The path's
 * segment is only a hint; what is shown is the state the server holds.
 */
export function VerifyResultPage() {
  const { data: state } = useQuery({
    ...verifyResultQuery(),
    // A real provider's notify may land a moment after the browser returns.
    refetchInterval: (q) => (q.state.data?.status === ProcessStatus.Processing ? 5000 : false),
  });
  if (!state) return null;
  const back = (
    <LinkButton key="back" to="/account/verify">
      返回实名认证
    </LinkButton>
  );
  const view =
    state.status === ProcessStatus.Done
      ? {
          status: "success" as const,
          title: "实名认证已完成",
          subTitle: `${state.real_name ?? ""} ${state.id_number ?? ""}`,
          extra: [
            <LinkButton key="tun" type="primary" to="/tun/list/add">
              创建隧道
            </LinkButton>,
            back,
          ],
        }
      : state.status === ProcessStatus.Rejected
        ? {
            status: "error" as const,
            title: "实名认证未通过",
            subTitle: `原因：${state.reason ?? "未说明"}`,
            extra: [
              <LinkButton key="retry" type="primary" to="/account/verify">
                重新提交
              </LinkButton>,
            ],
          }
        : state.status === ProcessStatus.Processing
          ? {
              status: "info" as const,
              title: "实名认证处理中",
              subTitle: "结果出来后会在此显示，请稍候。",
              extra: [back],
            }
          : { status: "warning" as const, title: "尚未提交实名认证", extra: [back] };
  return (
    <PageContainer title="实名认证结果">
      <Result {...view} />
    </PageContainer>
  );
}
