"""domain"""
