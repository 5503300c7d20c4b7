import { RiFileCopyLine } from "@remixicon/react";
import { Button, type ButtonProps } from "antd";
import { copyText } from "@/lib/clipboard";
import { feedback } from "@/lib/feedback";

export interface CopyButtonProps extends Omit<ButtonProps, "onClick" | "icon"> {
  /** what to copy */
  text: string;
  /** the toast after a successful copy */
  done?: string;
}

/** A button that copies `text` and says so. Its label defaults to 复制. */
export function CopyButton({ text, done = "已复制", children = "复制", ...rest }: CopyButtonProps) {
  const copy = async () => {
    if (await copyText(text)) feedback.success(done);
    else feedback.error("复制失败，请手动选择复制");
  };
  return (
    <Button icon={<RiFileCopyLine size={14} />} onClick={copy} {...rest}>
      {children}
    </Button>
  );
}
