#!/usr/bin/env bash
# What a user writes instead of the action, as `npm run bench` runs it: a `run:` step with curl, jq
# and `sleep 5` in a loop. GitHub runs such a step with `bash -eo pipefail`, hence the `set`.
# BASE_URL, PROJECT_ID, API_KEY and PROMPT come from the step's `env:`.
set -eo pipefail

id=$(curl -sSf -X POST "$BASE_URL/v2/agent/$PROJECT_ID/job" \
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' \
  -d "$(jq -nc --arg prompt "$PROMPT" '{prompt: $prompt}')" | jq -r .id)
echo "Created job $id"

while true; do
  status=$(curl -sSf "$BASE_URL/v2/agent/$PROJECT_ID/job/$id" -H "Authorization: Bearer $API_KEY" | jq -r .status)
  echo "Job $id is $status"
  case "$status" in
    completed | archived | failed) break ;;
  esac
  sleep 5
done
