// The user text a `bashExecution` message becomes on the wire (pi's bash-execution rendering, which OpenClaw
// shares; spec transcript.md §2 roles): OpenClaw's map estimates it as that text, clawscope's map shows it. Pure.

import { type JsonObject, num, str } from "../../shared/json.ts";

/**
 * "Ran `<command>`\n" + fenced output or "(no output)", then a cancel / non-zero exit note and a truncation note.
 */
export function bashExecutionText(message: JsonObject): string {
  const output = str(message, "output") ?? "";
  let text = `Ran \`${str(message, "command") ?? ""}\`\n`;
  text += output ? `\`\`\`\n${output}\n\`\`\`` : "(no output)";
  const exitCode = num(message, "exitCode");
  if (message.cancelled === true) text += "\n\n(command cancelled)";
  else if (exitCode !== undefined && exitCode !== 0) text += `\n\nCommand exited with code ${exitCode}`;
  const fullOutputPath = str(message, "fullOutputPath");
  if (message.truncated === true && fullOutputPath)
    text += `\n\n[Output truncated. Full output: ${fullOutputPath}]`;
  return text;
}
