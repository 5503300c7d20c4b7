import { type AdminUserDetail, fenToYuan, RoleLabel } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Form, Input, InputNumber, Modal, Radio, Select } from "antd";
import { useEffect } from "react";
import { NewPasswordFields } from "@/components/NewPasswordFields";
import { ReasonField } from "@/components/ReasonField";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { labelOptions } from "@/lib/options";
import { fieldRules } from "@/lib/rules";
import { type ActionForm, actionTitles, buildUpdate, type UserAction } from "../user-actions";
import { updateUser, usermgrKeys } from "../usermgr.api";

export interface UserActionModalProps {
  action: UserAction | null;
  user: AdminUserDetail;
  onClose: () => void;
}

/** A modal form for one action; submitting asks for confirmation, then PATCHes /super/user/info. */
export function UserActionModal({ action, user, onClose }: UserActionModalProps) {
  const [form] = Form.useForm<ActionForm>();
  const [modal, modalHolder] = Modal.useModal();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: updateUser,
    meta: { silentError: true },
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: usermgrKeys.detail(user.uid) }),
        queryClient.invalidateQueries({ queryKey: usermgrKeys.lists() }),
      ]);
    },
  });

  useEffect(() => {
    if (!action) return;
    form.resetFields();
    form.setFieldsValue({ nickname: user.nickname, role: user.role as 1 | 2 | 3, direction: "add" });
  }, [action, form, user.nickname, user.role]);

  const submit = async () => {
    if (!action) return;
    const values = await form.validateFields();
    const { body, confirm } = buildUpdate(action, user, values);
    modal.confirm({
      title: `${actionTitles[action]}？`,
      content: confirm,
      okText: "确认",
      cancelText: "取消",
      okButtonProps: { danger: action === "ban" || action === "password" },
      onOk: async () => {
        try {
          await mutation.mutateAsync(body);
          feedback.success(`${actionTitles[action]}成功`);
          onClose();
        } catch (error) {
          showFormError(form, error, { balance_change: "amount" });
        }
      },
    });
  };

  return (
    <>
      {modalHolder}
      <Modal
        open={action !== null}
        title={action ? actionTitles[action] : ""}
        okText="提交"
        cancelText="取消"
        onOk={submit}
        onCancel={onClose}
        confirmLoading={mutation.isPending}
        forceRender
      >
        <Form form={form} layout="vertical">
          {action === "nickname" && (
            <Form.Item
              name="nickname"
              label="昵称"
              rules={fieldRules("昵称", { required: true, length: { min: 1, max: 32 } })}
            >
              <Input maxLength={32} />
            </Form.Item>
          )}
          {action === "role" && (
            <Form.Item name="role" label="角色" rules={fieldRules("角色", { required: true, choice: true })}>
              <Select options={labelOptions(RoleLabel)} />
            </Form.Item>
          )}
          {action === "ban" && (
            <ReasonField name="ban_reason" label="封禁原因" placeholder="将展示给用户并记录在审计日志中" />
          )}
          {action === "balance" && (
            <>
              <Form.Item
                name="direction"
                label="调整方向"
                rules={fieldRules("调整方向", { required: true, choice: true })}
              >
                <Radio.Group
                  options={[
                    { value: "add", label: "增加" },
                    { value: "deduct", label: "扣减" },
                  ]}
                />
              </Form.Item>
              <Form.Item
                name="amount"
                label="金额（元）"
                extra={`当前余额 ¥${fenToYuan(user.balance)}`}
                rules={fieldRules("金额", { required: true, range: { min: 0.01, max: 1_000_000 } })}
              >
                <InputNumber min={0.01} max={1_000_000} precision={2} step={1} style={{ width: "100%" }} />
              </Form.Item>
              <Form.Item
                name="balance_reason"
                label="调整原因"
                rules={fieldRules("调整原因", { required: true, length: { min: 1, max: 200 } })}
              >
                <Input.TextArea rows={2} maxLength={200} showCount />
              </Form.Item>
            </>
          )}
          {action === "password" && <NewPasswordFields />}
        </Form>
      </Modal>
    </>
  );
}
