-- vigia register, version 3: indexes for the batch check, which reads each adjudication's pledges
-- by registration date and rank, each breach's latest liquidation, and payments by date. These
-- cover those reads without touching the tables (whose liquidation rows hold large JSON).

DROP INDEX pledges_adjudication;
CREATE INDEX pledges_adjudication ON pledges(adjudication_id, registered_on, rank);
DROP INDEX liquidations_breach;
CREATE INDEX liquidations_breach ON liquidations(breach_id, id, provisional);
DROP INDEX payments_breach;
CREATE INDEX payments_breach ON payments(breach_id, paid_on);
-- Adjudications are read by id (the check), by holder, or all of one program (few programs per
-- register: a scan); an index on program_id only slowed every import down.
DROP INDEX adjudications_program;
