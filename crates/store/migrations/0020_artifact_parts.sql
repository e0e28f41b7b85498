-- A delivered artifact is a part of its own: a `file` part whose path was `artifact:<id>` becomes
-- `{"type": "artifact", "id", "name", "size"}`, the other parts left as they were, in order.
UPDATE messages
SET content = (
    SELECT json_group_array(
        CASE
            WHEN json_extract(part.value, '$.type') = 'file'
                AND json_extract(part.value, '$.path') LIKE 'artifact:%'
            THEN json_object(
                'type', 'artifact',
                'id', substr(json_extract(part.value, '$.path'), length('artifact:') + 1),
                'name', json_extract(part.value, '$.name'),
                'size', json_extract(part.value, '$.size'))
            ELSE json(part.value)
        END)
    FROM (SELECT value FROM json_each(messages.content) ORDER BY key) AS part)
WHERE content LIKE '%"path":"artifact:%';
