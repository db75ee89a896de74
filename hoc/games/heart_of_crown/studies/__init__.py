"""Heart of Crown's own studies, built on the shared research layer: princess strength
(`princess_study`), the value of market cards under strong play (`card_value`, its report
`balance_report`) and SP by turn (`curves`)."""
