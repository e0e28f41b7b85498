-- One error code for a failed delivery: `not_delivered` (a reason only) became `delivery_failed`
-- (the target and the reason). Stored replies to a channel chat name their session, which is the
-- target; stored job runs name their job's target.
UPDATE messages
SET error_code = json_object(
        'code', 'delivery_failed',
        'params', json_object(
            'target', session_id,
            'reason', coalesce(json_extract(error_code, '$.params.reason'), '')))
WHERE json_valid(error_code) AND json_extract(error_code, '$.code') = 'not_delivered';

UPDATE job_runs
SET error_code = json_object(
        'code', 'delivery_failed',
        'params', json_object(
            'target', coalesce((SELECT target FROM jobs WHERE jobs.id = job_runs.job_id), ''),
            'reason', coalesce(json_extract(error_code, '$.params.reason'), '')))
WHERE json_valid(error_code) AND json_extract(error_code, '$.code') = 'not_delivered';
