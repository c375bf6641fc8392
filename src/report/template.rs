//! Empty import templates (`vigia template KIND --out FILE.xlsx|FILE.csv`): the Spanish headers
//! of each import, one example row that imports as it stands, and (in a workbook) a sheet of
//! notes on each column. The headers come from the one table of column names
//! ([`crate::headers`]); the columns from each import's own lists.

use crate::headers::spanish;
use rust_xlsxwriter::{Format, Workbook, XlsxError};

/// The four kinds of file vigia imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// `vigia adjudications import`.
    #[value(alias = "adjudicaciones")]
    Adjudications,
    /// `vigia pledge import`.
    #[value(alias = "prendas")]
    Pledges,
    /// `vigia acceptances import`.
    #[value(alias = "aceptaciones")]
    Acceptances,
    /// `vigia proposals import`.
    #[value(alias = "propuestas")]
    Proposals,
}

/// One column of a template: its English name, whether the import needs it, the example
/// row's value and what it holds.
pub struct Column {
    pub name: &'static str,
    pub required: bool,
    pub example: &'static str,
    pub note: &'static str,
}

const fn col(
    name: &'static str,
    required: bool,
    example: &'static str,
    note: &'static str,
) -> Column {
    Column {
        name,
        required,
        example,
        note,
    }
}

/// The columns of `kind`, the required ones first, with their example and note.
pub fn columns(kind: Kind) -> &'static [Column] {
    match kind {
        Kind::Adjudications => &ADJUDICATIONS,
        Kind::Pledges => &PLEDGES,
        Kind::Acceptances => &ACCEPTANCES,
        Kind::Proposals => &PROPOSALS,
    }
}

const DOC_TYPE: &str = "CC, CE, TI, PA, PEP, PPT o NIT";
const DOC_NUMBER: &str =
    "Con o sin puntos (79.263.082); un NIT con su dígito de verificación (800.197.268-4)";

const ADJUDICATIONS: [Column; 13] = [
    col("doc_type", true, "CC", DOC_TYPE),
    col("doc_number", true, "79.263.082", DOC_NUMBER),
    col(
        "name",
        true,
        "María Pérez Gómez",
        "Nombre del titular o razón social",
    ),
    col("person_type", true, "natural", "natural o jurídica"),
    col(
        "category",
        true,
        "trabajador",
        "Categoría de condiciones especiales del programa (o su numeral, p. ej. (ii))",
    ),
    col(
        "shares",
        true,
        "4.000",
        "Acciones adjudicadas, número entero (4.000 o 4000)",
    ),
    col(
        "price_per_share",
        true,
        "963",
        "Precio por acción en pesos (963 o 1.450,50); vacío: el precio fijo del programa",
    ),
    col(
        "adjudicated_on",
        true,
        "15/03/2024",
        "Fecha de adjudicación, dd/mm/aaaa (o una celda con formato de fecha)",
    ),
    col(
        "lender",
        true,
        "",
        "Entidad que financió la compra, si la hubo (la columna va aunque quede vacía)",
    ),
    col(
        "financed_shares",
        true,
        "",
        "Acciones que el acreedor financió y tomó en prenda de primer grado; vacío: 0",
    ),
    col(
        "address",
        false,
        "Calle 10 # 5-20",
        "Dirección para las cartas (opcional)",
    ),
    col("city", false, "Bogotá D.C.", "Ciudad (opcional)"),
    col(
        "email",
        false,
        "maria.perez@example.com",
        "Correo electrónico (opcional)",
    ),
];

const PLEDGES: [Column; 9] = [
    col(
        "rank",
        true,
        "1",
        "Grado de la prenda: 1 (primero) o 2 (segundo, cuando el acreedor tiene el primero)",
    ),
    col(
        "registered_on",
        true,
        "20/03/2024",
        "Fecha de inscripción en el libro de accionistas, dd/mm/aaaa",
    ),
    col(
        "adjudication_id",
        false,
        "",
        "Número de la adjudicación en vigia; o déjelo vacío y dé el documento del titular",
    ),
    col(
        "lender",
        false,
        "",
        "Acreedor de la prenda (vacío: los vendedores)",
    ),
    col("doc_type", false, "CC", DOC_TYPE),
    col("doc_number", false, "79.263.082", DOC_NUMBER),
    col(
        "adjudicated_on",
        false,
        "15/03/2024",
        "Fecha de la adjudicación, cuando el titular tiene varias",
    ),
    col(
        "program",
        false,
        "D3939-2004",
        "Código del programa, cuando el titular está en varios",
    ),
    col(
        "shares",
        false,
        "",
        "Acciones que cubre la prenda (vacío: todas las aún no pignoradas); p. ej. las financiadas con \
         prenda de grado 2 y el resto en otra fila con grado 1",
    ),
];

const ACCEPTANCES: [Column; 21] = [
    col(
        "filed_at",
        true,
        "10/01/2024 09:30",
        "Fecha y hora de radicación, dd/mm/aaaa hh:mm",
    ),
    col("doc_type", true, "CC", DOC_TYPE),
    col("doc_number", true, "79.263.082", DOC_NUMBER),
    col(
        "name",
        true,
        "María Pérez Gómez",
        "Nombre del aceptante o razón social",
    ),
    col("person_type", true, "natural", "natural o jurídica"),
    col(
        "category",
        true,
        "trabajador",
        "Categoría de condiciones especiales del programa (o su numeral, p. ej. (ii))",
    ),
    col("shares", true, "4.000", "Acciones pedidas, número entero"),
    col(
        "accepts_reduction",
        false,
        "si",
        "si o no; vacío: acepta la reducción (Art. 12)",
    ),
    col("files_tax_return", false, "si", "si o no: declara renta"),
    col(
        "patrimonio_liquido",
        false,
        "150.000.000",
        "Patrimonio líquido en pesos",
    ),
    col(
        "income",
        false,
        "",
        "Ingresos anuales en pesos (no declarantes)",
    ),
    col(
        "is_director",
        false,
        "no",
        "si o no: es administrador de la emisora",
    ),
    col(
        "annual_salary",
        false,
        "",
        "Salario anual en pesos (administradores)",
    ),
    col(
        "investment_limit",
        false,
        "",
        "Límite legal o estatutario de inversión en pesos (personas jurídicas)",
    ),
    col(
        "patrimonio_ajustado",
        false,
        "",
        "Patrimonio ajustado en pesos (personas jurídicas)",
    ),
    col(
        "declarations",
        false,
        "si",
        "si o no: firmó las declaraciones de la aceptación",
    ),
    col(
        "dismissed_with_just_cause",
        false,
        "no",
        "si o no: extrabajador desvinculado con justa causa (obligatorio para un extrabajador)",
    ),
    col(
        "review",
        false,
        "",
        "Causal de revisión: FORM_DEFECT, INFO_NOT_SUPPLIED, PRICE_NOT_PAID, una causal del programa o vacío",
    ),
    col("lender", false, "", "Entidad que financia la compra"),
    col("financed_shares", false, "", "Acciones que financia"),
    col(
        "income_financial_statements",
        false,
        "",
        "Ingresos anuales según los estados financieros, en pesos (si el programa los pide)",
    ),
];

const PROPOSALS: [Column; 11] = [
    col("proposal", true, "P-1", "Identificador de la propuesta"),
    col(
        "filed_at",
        true,
        "10/06/2024 10:00",
        "Fecha y hora de radicación, dd/mm/aaaa hh:mm",
    ),
    col(
        "bidders",
        true,
        "NIT:800197268-4:Inversiones Andinas S.A.S.",
        "TIPO:NÚMERO:NOMBRE de cada proponente; varios separados por | (propuesta conjunta)",
    ),
    col(
        "shares",
        true,
        "1.000",
        "Acciones propuestas (el bloque entero: Todo o Nada)",
    ),
    col(
        "price_per_share",
        true,
        "1.100,50",
        "Precio por acción en pesos",
    ),
    col("term_days", true, "0", "Días de la adjudicación al pago"),
    col(
        "beneficial_owner",
        false,
        "",
        "Grupo de beneficiario real, si lo hay",
    ),
    col(
        "guarantee",
        false,
        "50.000.000",
        "Garantía de seriedad en pesos (Art. 19)",
    ),
    col(
        "funds_accredited",
        false,
        "si",
        "si o no: acreditó el origen de los fondos (Art. 22)",
    ),
    col("review", false, "", "Causal de revisión o vacío"),
    col("tranche", false, "1", "Tramo; vacío: 1"),
];

/// The template as a CSV file the es-CO Excel opens as it is: UTF-8 with a BOM, `;` between
/// columns, the Spanish headers and the example row.
pub fn csv(kind: Kind) -> Vec<u8> {
    let cols = columns(kind);
    let field = |s: &str| {
        if s.contains([';', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let header: Vec<String> = cols.iter().map(|c| field(spanish(c.name))).collect();
    let example: Vec<String> = cols.iter().map(|c| field(c.example)).collect();
    format!("\u{feff}{}\n{}\n", header.join(";"), example.join(";")).into_bytes()
}

/// The template as a workbook: sheet «Datos» with the Spanish headers (bold, frozen) and the
/// example row, every cell text (so that `4.000` stays as typed), and sheet «Notas» with what
/// each column holds.
pub fn xlsx(kind: Kind) -> Result<Vec<u8>, XlsxError> {
    let cols = columns(kind);
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let text = Format::new().set_num_format("@");
    let data = book.add_worksheet();
    data.set_name("Datos")?;
    for (c, column) in (0u16..).zip(cols) {
        data.write_string_with_format(0, c, spanish(column.name), &bold)?;
        data.set_column_format(c, &text)?;
        if !column.example.is_empty() {
            data.write_string_with_format(1, c, column.example, &text)?;
        }
        let width = spanish(column.name)
            .chars()
            .count()
            .max(column.example.chars().count())
            .clamp(10, 40);
        data.set_column_width(c, u16::try_from(width).unwrap_or(40) + 2)?;
    }
    data.set_freeze_panes(1, 0)?;
    let notes = book.add_worksheet();
    notes.set_name("Notas")?;
    for (c, h) in (0u16..).zip(["Columna", "Nombre en inglés", "¿Obligatoria?", "Qué lleva"]) {
        notes.write_string_with_format(0, c, h, &bold)?;
    }
    for (r, column) in (1u32..).zip(cols) {
        notes.write_string(r, 0, spanish(column.name))?;
        notes.write_string(r, 1, column.name)?;
        notes.write_string(r, 2, if column.required { "sí" } else { "no" })?;
        notes.write_string(r, 3, column.note)?;
    }
    let after = u32::try_from(cols.len()).unwrap_or(0) + 2;
    notes.write_string(
        after,
        0,
        "Cifras a la colombiana: punto de miles y coma decimal (1.450 = mil cuatrocientos \
         cincuenta; 1.450,50). Fechas dd/mm/aaaa con el año de cuatro dígitos. Los encabezados \
         pueden ir en español o en inglés. Borre la fila de ejemplo antes de importar.",
    )?;
    notes.set_column_width(0, 28)?;
    notes.set_column_width(1, 26)?;
    notes.set_column_width(3, 90)?;
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_column_is_a_column_of_its_import_with_a_spanish_name() {
        let of = |kind| -> Vec<&'static str> {
            match kind {
                Kind::Adjudications => crate::import::COLUMNS
                    .iter()
                    .chain(&crate::import::CONTACT_COLUMNS)
                    .copied()
                    .collect(),
                Kind::Pledges => crate::import::PLEDGE_COLUMNS
                    .iter()
                    .chain(&crate::import::PLEDGE_OPTIONAL)
                    .copied()
                    .collect(),
                Kind::Acceptances => crate::offering::file::COLUMNS
                    .iter()
                    .chain(&crate::offering::file::OPTIONAL)
                    .copied()
                    .collect(),
                Kind::Proposals => crate::offering::proposals::COLUMNS
                    .iter()
                    .chain(&crate::offering::proposals::OPTIONAL)
                    .copied()
                    .collect(),
            }
        };
        for kind in [
            Kind::Adjudications,
            Kind::Pledges,
            Kind::Acceptances,
            Kind::Proposals,
        ] {
            let names: Vec<&str> = columns(kind).iter().map(|c| c.name).collect();
            let mut want = of(kind);
            let mut got = names.clone();
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{kind:?}");
            for c in columns(kind) {
                assert!(!spanish(c.name).is_empty(), "{}", c.name);
                assert_eq!(crate::headers::canonical(spanish(c.name)), Some(c.name));
            }
        }
    }
}
