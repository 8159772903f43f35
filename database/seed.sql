-- The lab's database, as TechEmpower's db and queries tests read it: the world table,
-- 10,000 rows with a random number in 1..10000 each, and pg_stat_statements, which the
-- statement-count check reads. Run once, by start.sh, into a fresh cluster.
CREATE EXTENSION pg_stat_statements;

CREATE TABLE world (
    id integer PRIMARY KEY,
    randomnumber integer NOT NULL
);

INSERT INTO world (id, randomnumber)
SELECT id, 1 + floor(random() * 10000)::integer
FROM generate_series(1, 10000) AS id;

ANALYZE world;

-- The seeding's own statements are no server's.
SELECT pg_stat_statements_reset();
