"""The walkthrough's world (`world`: a scratch repository and its steps) and what it shows of the
projections (`projections`).
"""
