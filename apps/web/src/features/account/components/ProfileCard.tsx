import { ProcessStatusLabel, RoleLabel, type UserInfo } from "@burrow/contract";
import { RiUploadLine } from "@remixicon/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Avatar, Button, Card, Descriptions, Form, Input, Space, Upload, type UploadProps } from "antd";
import { useEffect, useState } from "react";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { avatarInitial, formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { accountKeys, updateInfo, uploadAvatar } from "../account.api";

/** Avatar formats and size the server accepts. */
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** Profile: avatar upload, nickname, and the account's facts. */
export function ProfileCard({ user }: { user: UserInfo }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ nickname: string }>();
  const [uploading, setUploading] = useState(false);

  useEffect(() => form.setFieldsValue({ nickname: user.nickname }), [form, user.nickname]);

  const nickname = useMutation({
    mutationFn: updateInfo,
    meta: { silentError: true },
    onSuccess: async () => {
      feedback.success("昵称已保存");
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    },
    onError: (error) => showFormError(form, error),
  });

  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (!AVATAR_TYPES.includes(file.type)) {
      feedback.error("头像仅支持 PNG、JPEG、WebP、GIF 格式");
      return Upload.LIST_IGNORE;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      feedback.error("头像不能超过 2 MB");
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps["customRequest"] = async ({ file, onSuccess, onError, onProgress }) => {
    setUploading(true);
    try {
      const result = await uploadAvatar(file as Blob, (percent) => onProgress?.({ percent }));
      onSuccess?.(result);
      feedback.success("头像已更新");
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    } catch (error) {
      onError?.(error as Error);
      showFormError(form, error);
    } finally {
      setUploading(false);
    }
  };

  const avatar = user.personal_info.avatar;
  return (
    <Card title="个人资料">
      <Space size={20} align="start" wrap className="profile-head">
        <Space direction="vertical" align="center">
          <Avatar size={80} src={avatar || undefined} alt="头像">
            {avatar ? null : avatarInitial(user)}
          </Avatar>
          <Upload
            accept={AVATAR_TYPES.join(",")}
            showUploadList={false}
            beforeUpload={beforeUpload}
            customRequest={customRequest}
          >
            <Button size="small" icon={<RiUploadLine size={14} />} loading={uploading}>
              更换头像
            </Button>
          </Upload>
        </Space>
        <Form
          form={form}
          layout="vertical"
          className="profile-nickname"
          initialValues={{ nickname: user.nickname }}
          onFinish={({ nickname: value }) => nickname.mutate({ nickname: value.trim() })}
        >
          <Form.Item label="昵称" required>
            <Space.Compact block>
              <Form.Item
                name="nickname"
                noStyle
                rules={fieldRules("昵称", { required: true, length: { min: 1, max: 32 } })}
              >
                <Input id="profile-nickname" aria-label="昵称" maxLength={32} placeholder="请输入昵称" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={nickname.isPending}>
                保存
              </Button>
            </Space.Compact>
          </Form.Item>
        </Form>
      </Space>
      <Descriptions column={{ xs: 1, sm: 2 }} size="small" className="profile-facts">
        <Descriptions.Item label="UID">{user.uid}</Descriptions.Item>
        <Descriptions.Item label="手机号">{user.personal_info.phone_number}</Descriptions.Item>
        <Descriptions.Item label="角色">{RoleLabel[user.role] ?? user.role}</Descriptions.Item>
        <Descriptions.Item label="实名认证">{ProcessStatusLabel[user.verify_status] ?? "-"}</Descriptions.Item>
        <Descriptions.Item label="邀请码">{user.invite_code || "-"}</Descriptions.Item>
        <Descriptions.Item label="注册时间">{formatTime(user.created_at)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
