"""(families to come)"""
