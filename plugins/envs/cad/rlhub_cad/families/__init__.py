"""Every part family, in registration order."""

from .plates import CounterborePlate, HolePlate, SlotPlate

FAMILIES = [HolePlate(), SlotPlate(), CounterborePlate()]
