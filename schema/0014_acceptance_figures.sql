-- vigia register, migration 0014: figures an acceptance proves beyond the columns of 0006 (issue
-- 27): a cap may read several documents (seed 003 num. 5: annual income "que figuren en: (a) la
-- declaración de renta o de ingresos y patrimonio ... y (b) en los estados financieros"). Kept
-- apart from `acceptances` so that the audited form of the rows imported before stays what it
-- was; written by the same import, in its transaction, and covered by its audit event.

CREATE TABLE acceptance_figures (
    id             INTEGER PRIMARY KEY,
    acceptance_id  INTEGER NOT NULL REFERENCES acceptances(id),
    -- the acceptances file's column the figure was read from
    measure        TEXT NOT NULL CHECK (measure IN ('income_financial_statements')),
    -- pesos, an exact decimal as text
    amount         TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    created_by     TEXT NOT NULL,
    UNIQUE (acceptance_id, measure)
);

CREATE TRIGGER acceptance_figures_no_update BEFORE UPDATE ON acceptance_figures BEGIN SELECT RAISE(ABORT, 'acceptance_figures is append-only: record a correction instead'); END;
CREATE TRIGGER acceptance_figures_no_delete BEFORE DELETE ON acceptance_figures BEGIN SELECT RAISE(ABORT, 'acceptance_figures is append-only: record a correction instead'); END;
