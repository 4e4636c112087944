"""World builders: `build(rng, entity) -> World`, each consistent by construction."""

from .finance import budget, financials, loan
from .legal import contract
from .operations import bom, claims, invoices, payroll, shipping
from .technical import datasheet, sla, testreport

BUILDERS = {
    "financials": financials, "loan": loan, "budget": budget, "invoices": invoices, "payroll": payroll,
    "claims": claims, "contract": contract, "datasheet": datasheet, "testreport": testreport, "bom": bom,
    "sla": sla, "shipping": shipping,
}
