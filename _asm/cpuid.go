package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/reg"
)

// The CPUID instruction for package internal/cpuid (-gen cpuid), which
// decodes the vendor, family and model of leaves 0 and 1.
func genCPUID() {
	TEXT("cpuid", NOSPLIT, "func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)")
	Doc("cpuid executes CPUID with EAX = leaf and ECX = sub.")
	Load(Param("leaf"), EAX)
	Load(Param("sub"), ECX)
	CPUID()
	Store(EAX, Return("eax"))
	Store(EBX, Return("ebx"))
	Store(ECX, Return("ecx"))
	Store(EDX, Return("edx"))
	RET()
}
