# The declarations of _core.pxd, for the module compiled from the same source with BMI2
# (_core_bmi2.pyx): Cython pairs a .pyx with the .pxd of its own name.
include "_core.pxd"
