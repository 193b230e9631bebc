"""The effective rule set (`effective`, `item`), rules as projections (`projections`), the rule
package and the vendored baseline (`package`, `rules.vendoring`, `rules.vendorgen`), and their
stages
(`stages`).

Imports: `mj_policy.layer`, `mj_policy.projection`, `mj_policy.receipt`, `mj_core`,
`mj_core.schema`, `mj_core.stream`, `mj_core.write`, `mj_core.yaml`.
Imported by: `mj_policy.adoption`, `mj_policy.layer`, `mj_policy.projection`,
`mj_policy.receipt`, `mj_state`, `mj_watch`.
"""
