#!/usr/bin/env bash
# The agent manifests (.well-known/agent-card.json, A2A v1.0; .well-known/agent.json, the seed
# tool's fields) against what the binary says of itself: its version, the subcommands
# `workloadtruth --help` lists, the tools `workloadtruth mcp` lists and the protocol versions it speaks.
# Usage: agent_card_test.sh WORKLOADTRUTH REPO_ROOT
set -uo pipefail
wt=$1
root=$2
# shellcheck source=tests/cli_checks.sh
source "$(dirname "$0")/cli_checks.sh"
card=$root/.well-known/agent-card.json
manifest=$root/.well-known/agent.json

version=$("$wt" --version | awk '{print $2}')
subcommands=$("$wt" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' | sort | jq -R . | jq -sc .)
tools=$tmp/tools.json
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | "$wt" mcp 2>/dev/null | jq -c '.result.tools' >"$tools"
versions=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"server/discover"}' | "$wt" mcp 2>/dev/null |
  jq -c '.result.supportedVersions')

check "agent-card.json is JSON" 0 jq -e . "$card"
expect "A2A required fields" "jq -e 'has(\"name\") and has(\"description\") and has(\"version\") and has(\"capabilities\")
  and (.supportedInterfaces | length > 0) and all(.supportedInterfaces[]; has(\"url\") and has(\"protocolBinding\")
  and has(\"protocolVersion\")) and (.defaultInputModes | length > 0) and (.defaultOutputModes | length > 0)' '$card' >/dev/null"
expect "card version is the binary's ($version)" "[ \"\$(jq -r .version '$card')\" = '$version' ]"
expect "one skill per MCP tool, same ids in the same order" \
  "[ \"\$(jq -c '[.skills[].id]' '$card')\" = \"\$(jq -c '[.[].name]' '$tools')\" ]"
expect "skill names are the tools' titles" \
  "[ \"\$(jq -c '[.skills[].name]' '$card')\" = \"\$(jq -c '[.[].title]' '$tools')\" ]"
expect "every skill has a description and tags" \
  "jq -e 'all(.skills[]; (.description | length > 0) and (.tags | length > 0))' '$card' >/dev/null"

check "agent.json is JSON" 0 jq -e . "$manifest"
expect "manifest version is the binary's" "[ \"\$(jq -r .version '$manifest')\" = '$version' ]"
expect "manifest subcommands are those --help lists: $subcommands" \
  "[ \"\$(jq -c '.cli.subcommands | sort' '$manifest')\" = '$subcommands' ]"
expect "manifest tools are those tools/list gives" \
  "[ \"\$(jq -c '.mcp.tools' '$manifest')\" = \"\$(jq -c '[.[].name]' '$tools')\" ]"
expect "manifest protocol versions are those server/discover gives: $versions" \
  "[ \"\$(jq -c '.mcp.protocol_versions' '$manifest')\" = '$versions' ]"
expect "manifest start command runs the MCP server" "[ \"\$(jq -c .mcp.command '$manifest')\" = '[\"workloadtruth\",\"mcp\"]' ]"
expect "manifest license is the LICENSE file's" \
  "[ \"\$(jq -r .license '$manifest')\" = Apache-2.0 ] && grep -q 'Apache License' '$root/LICENSE'"

report agent_card
