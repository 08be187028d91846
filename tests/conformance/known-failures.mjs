// Failures of the official suites that are not agentnet's bugs, each with
// why (docs/conformance.md has the suites' words and the measured runs).
// run.mjs fails on any failure not listed here, and reports an entry that
// passes now so it can be removed.
//
// An agentnet bug never goes here: it fails the run until it is fixed.

const NOT_DECLARED = 'https://github.com/modelcontextprotocol/conformance/issues/516';
const WRONG_VERSION_HEADER = 'https://github.com/modelcontextprotocol/conformance/issues/412';

/** MCP conformance (server scenarios), by scenario. */
export const KNOWN_MCP = {
  // Optional capabilities agentnet does not declare: -32601 is the spec's answer.
  'completion-complete': `completion/complete: agentnet declares no completions capability, so -32601 is correct; the suite does not read capabilities (${NOT_DECLARED})`,
  'logging-set-level': `logging/setLevel: agentnet declares no logging capability (-32601 is correct) (${NOT_DECLARED})`,
  'tools-call-with-logging': `needs logging/setLevel and a fixture tool that logs: no logging capability declared (${NOT_DECLARED})`,
  // The reference server's fixtures that a network member cannot carry.
  'tools-call-image': `fixture tool test_image_content: a member's tool output is JSON, served as text and structuredContent; no image content (${NOT_DECLARED})`,
  'tools-call-audio': `fixture tool test_audio_content: no audio content from a member's tool (${NOT_DECLARED})`,
  'tools-call-embedded-resource': `fixture tool test_embedded_resource: no embedded-resource content from a member's tool (${NOT_DECLARED})`,
  'tools-call-mixed-content': `fixture tool test_multiple_content_types: no image/resource content from a member's tool (${NOT_DECLARED})`,
  'tools-call-with-progress': `fixture tool test_tool_with_progress: a member's invocation has no progress channel to relay as notifications/progress (${NOT_DECLARED})`,
  'tools-call-sampling': `fixture tool test_sampling: a network does not relay sampling/createMessage from a member to the MCP client (${NOT_DECLARED})`,
  'tools-call-elicitation': `fixture tool test_elicitation: a network does not relay elicitation/create to the MCP client (${NOT_DECLARED})`,
  'elicitation-sep1034-defaults': `fixture tool test_elicitation_sep1034_defaults: no elicitation relay (${NOT_DECLARED})`,
  'elicitation-sep1330-enums': `fixture tool test_elicitation_sep1330_enums: no elicitation relay (${NOT_DECLARED})`,
  'resources-read-text': `reads test://static-text: a network's resources are openagents://{network}/resource/... URIs (-32002 for any other is correct) (${NOT_DECLARED})`,
  'resources-read-binary': `reads test://static-binary: not a network URI; shared files are text (${NOT_DECLARED})`,
  'resources-templates-read': `reads test://template/123/data: a network has no resource templates (${NOT_DECLARED})`,
  'resources-subscribe': `subscribes to test://watched-resource, which no network has (-32002) (${NOT_DECLARED})`,
  'resources-unsubscribe': `subscribes to test://watched-resource first (-32002) (${NOT_DECLARED})`,
  'prompts-get-with-args': `prompt test_prompt_with_arguments: a network's prompts are SKILL.md contexts, without arguments (${NOT_DECLARED})`,
  'prompts-get-embedded-resource': `prompt test_prompt_with_embedded_resource: a SKILL.md prompt is one text message (${NOT_DECLARED})`,
  'prompts-get-with-image': `prompt test_prompt_with_image: a SKILL.md prompt is one text message (${NOT_DECLARED})`,
  // The suite's own bug.
  'server-sse-multiple-streams': `its raw POSTs send MCP-Protocol-Version: 2025-03-26 in a session that negotiated 2025-11-25; agentnet answers 400 as the transport spec says (${WRONG_VERSION_HEADER})`,
  'server-sse-polling': `its raw tools/call sends MCP-Protocol-Version: 2025-03-26 in a 2025-11-25 session, so it gets 400 and reports the test_reconnection tool missing (${WRONG_VERSION_HEADER})`,
};

const SNAKE_CASE = 'https://github.com/a2aproject/a2a-tck/issues/242';
const REUSED_IDS = 'tck_id() (tck/requirements/base.py) gives the same messageId for a prefix for the whole session, so a later test\'s SendMessage repeats an earlier message id; A2A 1.0 §3.3.1 lets an agent treat it as a duplicate ("Agents may utilize the messageId to detect duplicate messages"), and agentnet answers the earlier task, so no new push config is attached and no state changes';

/**
 * Known failures whose outcome depends on what the TCK sent before them in the
 * session (its reused messageIds): they may pass, or be skipped, on a run.
 */
export const MAY_PASS_A2A = new Set([
  'TestPushNotificationDelivery::test_delivery_includes_auth[jsonrpc]',
  'TestPushNotificationDelivery::test_delivery_at_least_once[jsonrpc]',
  'TestPushNotificationDelivery::test_delivery_payload_format[jsonrpc]',
]);

/** A2A TCK, by branch, by test (`{module or class}::{test}` as run.mjs names them). */
export const KNOWN_A2A = {
  '1.0-dev': {
    'TestAgentCardStructure::test_agent_card_validates_against_schema': 'CARD-STRUCT-001: the TCK fetches the card without A2A-Version (tests/compatibility/conftest.py agent_card), which A2A 1.0 §3.6 reads as a 0.3 client, so agentnet adds 0.3\'s fields; the card it serves with A2A-Version: 1.0 validates against the same schema',
    'TestPushNotificationDelivery::test_delivery_includes_auth[jsonrpc]': `PUSH-DELIVER-001: ${REUSED_IDS} (it passes when the delivery tests run alone: PYTEST_ADDOPTS="-k Delivery")`,
    'TestPushNotificationDelivery::test_delivery_at_least_once[jsonrpc]': `PUSH-DELIVER-002: ${REUSED_IDS}`,
    'TestPushNotificationDelivery::test_delivery_payload_format[jsonrpc]': `PUSH-DELIVER-003: ${REUSED_IDS}`,
    'TestHistoryLengthLimit::test_get_task_history_does_not_exceed_limit[jsonrpc]': `CORE-HIST-002: ${REUSED_IDS} (its tck-input-required task is an earlier, completed one, so it skips; agentnet reads GetTask's history_length as well as historyLength, so with fresh ids it passes)`,
    'TestJsonRpcErrorCodeMappings::test_content_type_not_supported_error': 'JSONRPC-SSE-002: the body it posts is str(payload) (a Python dict repr, not JSON), so -32700 Parse error is what JSON-RPC 2.0 requires; ContentTypeNotSupportedError (-32005) is for message parts\' media types, not the HTTP Content-Type',
  },
  '0.3.x': {
    'test_json_rpc_compliance::test_rejects_invalid_json_rpc_requests[invalid_request2--32601]': 'the request has no "id": a JSON-RPC notification, which JSON-RPC 2.0 §4.1 says the server MUST NOT answer, yet it expects a -32601 answer with HTTP 200; agentnet takes no notifications on A2A (HTTP 400, -32600 "one JSON-RPC request per POST")',
    'test_json_rpc_compliance::test_rejects_invalid_json_rpc_requests[invalid_request4--32602]': 'the request has no "id" (a notification, JSON-RPC 2.0 §4.1), yet it expects a -32602 answer with HTTP 200; agentnet answers 400 -32600',
  },
};
