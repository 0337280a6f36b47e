// Is cache-TTL pruning installed for a provider/model, and which path does 2026.9.2+ take?
// Spec pruning.md §1.2 (2026.3.2, 2026.7.1) and §2.2 (2026.9.x, incl. server-side clearing for a
// direct Anthropic API key). Provider plugins may decide otherwise at runtime — unknowable offline,
// so this is the built-in rule set. Pure.

import { type JsonObject, obj, str } from "../../../shared/json.ts";
import type { PruneAlgorithm } from "../../../shared/prune.ts";
import { configuredModel, providerBlock } from "../config/agent-settings.ts";

export interface EligibilityInput {
  algorithm: PruneAlgorithm;
  provider: string | null;
  modelId: string | null;
  /** `api` of the model (assistant message `api`, or the configured provider `api`). */
  api: string | null;
  config: JsonObject | null;
  /** The release has the bundled OpenAI plugin's `isCacheTtlEligible` hook (2026.9.6+: generation.ts). */
  openaiHook?: boolean;
}

export interface Eligibility {
  /** client = local pruning rounds; server-side = Anthropic context_management clearing (9.x); none = no rounds. */
  path: "client" | "server-side" | "none";
  reason: string;
}

function isGeminiCacheModel(api: string, model: string): boolean {
  return api === "google-generative-ai" && (model.startsWith("gemini-2.5") || model.startsWith("gemini-3"));
}

function isBedrockClaude(model: string): boolean {
  return (
    model.includes("anthropic.claude") ||
    model.includes("anthropic/claude") ||
    (model.startsWith("arn:") && model.includes("application-inference-profile") && model.includes("claude"))
  );
}

/** Built-in eligibility rule, without the server-side split. */
function eligibleReason(
  input: EligibilityInput,
  provider: string,
  model: string,
  api: string,
): string | null {
  if (input.algorithm === "2026.3") {
    // 2026.3.2: anthropic / moonshot / zai; openrouter with those model prefixes; kilocode + anthropic/…
    if (["anthropic", "moonshot", "zai"].includes(provider)) return `provider ${provider}`;
    if (
      provider === "openrouter" &&
      ["anthropic/", "moonshot/", "moonshotai/", "zai/"].some((p) => model.startsWith(p))
    )
      return `openrouter model ${model}`;
    if (provider === "kilocode" && model.startsWith("anthropic/")) return `kilocode model ${model}`;
    return null;
  }
  if (provider === "anthropic" || provider === "anthropic-vertex") return `provider ${provider}`;
  if (provider === "amazon-bedrock" && isBedrockClaude(model)) return `Bedrock Claude model ${model}`;
  if (api === "anthropic-messages") return "api anthropic-messages";
  if (provider === "kilocode" && model.startsWith("anthropic/")) return `kilocode model ${model}`;
  if (isGeminiCacheModel(api, model)) return `Gemini cache model ${model}`;
  if (provider === "openrouter" && isOpenRouterCacheTtlModel(input.algorithm, model)) {
    return `openrouter model ${model}`;
  }
  if (provider === "openai" && input.openaiHook === true) return openAiRoute(input.config, input.modelId);
  return null;
}

/** OpenAI's own endpoints (extensions/openai/base-url.ts classifyOpenAIBaseUrl, 2026.9.6). */
const PLATFORM_PATHS = new Set(["/", "/v1", "/v1/"]);
const CHATGPT_PATHS = new Set(
  ["", "/v1", "/codex", "/codex/v1", "/codex/responses"].flatMap((p) => [
    `/backend-api${p}`,
    `/backend-api${p}/`,
  ]),
);

function classifyOpenAiBaseUrl(baseUrl: string): "platform" | "chatgpt" | "other" {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return "other";
  }
  const host = url.hostname.toLowerCase().replace(/\.$/u, "");
  if (url.protocol !== "https:" || url.port || url.search || url.hash || url.username || url.password)
    return "other";
  if (host === "api.openai.com" && PLATFORM_PATHS.has(url.pathname)) return "platform";
  if (host === "chatgpt.com" && CHATGPT_PATHS.has(url.pathname)) return "chatgpt";
  return "other";
}

/**
 * 2026.9.6's OpenAI provider hook (`buildOpenAIResponsesProviderHooks` isCacheTtlEligible, dist `shared-*.mjs`):
 * provider `openai` and the model's `compat.supportsPromptCacheKey`, else a base URL of OpenAI's platform API or of
 * ChatGPT/Codex. The base URL is the model's, then the provider's, else OpenAI's default (the OPENAI_BASE_URL
 * environment variable of the gateway may change it: not readable offline).
 */
function openAiRoute(config: JsonObject | null, modelId: string | null): string | null {
  const model = configuredModel(config, "openai", modelId);
  const compat = obj(model, "compat");
  const key = compat?.supportsPromptCacheKey;
  if (typeof key === "boolean") return key ? "OpenAI model with compat.supportsPromptCacheKey" : null;
  const configured = str(model, "baseUrl") ?? str(providerBlock(config, "openai"), "baseUrl");
  const baseUrl = configured ?? "https://api.openai.com/v1";
  const kind = classifyOpenAiBaseUrl(baseUrl);
  if (kind === "other") return null;
  const where = configured
    ? `base URL ${baseUrl}`
    : "OpenAI's default base URL (unless OPENAI_BASE_URL is set)";
  return `OpenAI ${kind === "platform" ? "platform API" : "ChatGPT/Codex"}: ${where}`;
}

/**
 * The bundled OpenRouter plugin's `isCacheTtlEligible` (dist `extensions/openrouter/index.js`): 2026.7.x
 * `OPENROUTER_CACHE_TTL_MODEL_PREFIXES` (anthropic/, deepseek/, moonshot/, moonshotai/, zai/); from 2026.8.1
 * `OPENROUTER_CACHE_TTL_MODEL_FAMILY` = /^(?:anthropic|deepseek|moonshot(?:ai)?|z-?ai)\// over the id without an
 * `openrouter/` or `~` prefix. `model` is lower-cased (OpenRouter ids are).
 */
function isOpenRouterCacheTtlModel(algorithm: PruneAlgorithm, model: string): boolean {
  if (algorithm === "2026.7") {
    return ["anthropic/", "deepseek/", "moonshot/", "moonshotai/", "zai/"].some((p) => model.startsWith(p));
  }
  return /^(?:anthropic|deepseek|moonshot(?:ai)?|z-?ai)\//.test(
    model.replace(/^openrouter\//, "").replace(/^~/, ""),
  );
}

/**
 * 2026.9.x server-side path: provider `anthropic`, api `anthropic-messages`, a non-OAuth API key and
 * base URL empty or host api.anthropic.com (pruning.md §2.2). The auth mode is read only from the
 * config's `apiKey` prefix (OAuth tokens start `sk-ant-oat`); credential files are never read.
 */
function isDirectAnthropic(
  config: JsonObject | null,
  provider: string,
  api: string,
): { direct: boolean; why: string } {
  if (provider !== "anthropic" || api !== "anthropic-messages") return { direct: false, why: "" };
  const p = providerBlock(config, provider);
  const baseUrl = str(p, "baseUrl")?.trim() ?? "";
  if (baseUrl) {
    let host = "";
    try {
      host = new URL(baseUrl).hostname.toLowerCase();
    } catch {
      host = "";
    }
    if (host !== "api.anthropic.com")
      return { direct: false, why: `base URL ${baseUrl} is not api.anthropic.com` };
  }
  const key = str(p, "apiKey") ?? "";
  if (key.startsWith("sk-ant-oat")) return { direct: false, why: "OAuth token auth" };
  return {
    direct: true,
    why: `provider anthropic, api anthropic-messages, base URL ${baseUrl || "(default)"}${key ? "" : ", auth mode unknown (assumed API key)"}`,
  };
}

export function resolveEligibility(input: EligibilityInput): Eligibility {
  const provider = (input.provider ?? "").trim().toLowerCase();
  const model = (input.modelId ?? "").trim().toLowerCase();
  const configuredApi = provider ? str(providerBlock(input.config, provider), "api") : undefined;
  const api = (input.api ?? configuredApi ?? "").trim().toLowerCase();
  if (!provider) return { path: "none", reason: "provider unknown" };
  const why = eligibleReason(input, provider, model, api);
  if (why === null) {
    return {
      path: "none",
      reason: `${provider}/${model || "?"} is not cache-TTL eligible (built-in rules; a provider plugin may differ)`,
    };
  }
  if (input.algorithm === "2026.9") {
    const d = isDirectAnthropic(input.config, provider, api);
    if (d.direct) {
      return {
        path: "server-side",
        reason: `direct Anthropic API (${d.why}): 2026.9.x asks the server to clear tool uses (context_management) instead of local rounds; the ANTHROPIC_BASE_URL env may change this`,
      };
    }
  }
  return { path: "client", reason: `eligible: ${why}` };
}
