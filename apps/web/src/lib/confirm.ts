import type { Modal } from "antd";
import { feedback } from "./feedback";

type ModalApi = ReturnType<typeof Modal.useModal>[0];

/**
 * Asks before deleting (删除 in red, 取消); on 删除 runs `run` and says what `done` makes of its
 * answer. A failure is already shown by the central mutation error handler, so it is not rethrown.
 * @param modal Modal.useModal()'s instance (its holder must be rendered)
 */
export function askDelete<R>(
  modal: ModalApi,
  opts: { title: string; content: string; run: () => Promise<R>; done: (answer: R) => string },
) {
  return modal.confirm({
    title: opts.title,
    content: opts.content,
    okText: "删除",
    okButtonProps: { danger: true },
    cancelText: "取消",
    onOk: () =>
      opts
        .run()
        .then((answer) => feedback.success(opts.done(answer)))
        .catch(() => undefined),
  });
}
