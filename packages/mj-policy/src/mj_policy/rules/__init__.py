"""The effective rule set (`effective`, `item`), rules as projections (`projections`), the rule
package and the vendored baseline (`package`, `vendoring`, `vendorgen`), and their stages
(`stages`).
"""
