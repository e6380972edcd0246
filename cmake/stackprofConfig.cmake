# stackprofConfig.cmake - find_package(stackprof): a worst-case stack
# check for programs built by CMake.
#
#	find_package(stackprof REQUIRED)
#	add_executable(prog main.c util.c)
#	stackprof_check(prog BUDGET 4K ENTRY main)
#
# Installed by stackprof's `make install` as
# PREFIX/lib/cmake/stackprof/stackprofConfig.cmake.  Everything is found
# relative to this file, so that an installed tree can move (DESTDIR,
# another PREFIX): PREFIX/bin/stackprof, PREFIX/share/stackprof.  In a
# cross build whose toolchain file sets CMAKE_FIND_ROOT_PATH_MODE_PACKAGE
# to ONLY, find stackprof (a program of the build machine) with
# find_package(stackprof REQUIRED NO_CMAKE_FIND_ROOT_PATH).
#
# Sets
#	stackprof_EXECUTABLE	the stackprof binary
#	stackprof_DATA_DIR	PREFIX/share/stackprof: stackprof.mk and the
#				shipped annotation files (NAME.ann)
#	stackprof_VERSION	(from stackprofConfigVersion.cmake)
# and the imported executable target stackprof::stackprof.
#
# stackprof_check(TARGET [BUDGET bytes] [ENTRY name...]
#                 [ENTRY_GLOB pattern...] [ANNOTATE file...] [FLAGS ...]
#                 [ALLOW_UNBOUNDED] [POST_BUILD])
#
# TARGET, an executable or a shared library created in the calling
# directory, gets -fstack-usage in its C and C++ compile options, and -g
# where the build type has no debug information (CMAKE_BUILD_TYPE empty,
# Release, MinSizeRel; per configuration with a multi-config generator);
# GCC's link options get -fstack-usage too, for the rows an LTO link
# writes (INTERPROCEDURAL_OPTIMIZATION or -flto); no other target changes.
# Then
#	TARGET-stack-check	a target that builds TARGET and runs
#				stackprof --budget BUDGET on it: a worst case
#				over BUDGET, an unbounded one or bad input
#				fails the build, each offender with a
#				GCC-style "file:line:col: error:" line
#	TARGET-stack		the same as a CTest test (unless
#				BUILD_TESTING is off; enable_testing()
#				writes it out)
#	POST_BUILD		the same check after every link of TARGET;
#				a failed check removes TARGET's file, as a
#				failed link would, so that the next build
#				checks again
#
#	BUDGET		bytes, with K, M or G (default 8K)
#	ENTRY		report and check only these roots (--entry)
#	ENTRY_GLOB	... the roots whose names match (--entry-glob)
#	ANNOTATE	annotation files (--annotate): a relative path is
#			relative to the calling CMakeLists.txt's directory; a
#			bare NAME that is no such file is the shipped NAME.ann
#	ALLOW_UNBOUNDED	hold an unbounded total's lower bound against the
#			budget (--allow-unbounded)
#	FLAGS		more stackprof options, e.g. --sarif FILE
#
# The .su files are read beside TARGET's objects (CMakeFiles/TARGET.dir/)
# and, after an LTO link, beside TARGET's file (TARGET.ltransN.ltrans.su).
# The -g decision reads CMAKE_<LANG>_FLAGS[_<CONFIG>] and TARGET's
# COMPILE_OPTIONS at the end of the calling directory (CMake 3.19 and
# later), else when stackprof_check is called.

if(CMAKE_VERSION VERSION_LESS 3.15)
	set(stackprof_FOUND FALSE)
	set(stackprof_NOT_FOUND_MESSAGE
	    "stackprof_check needs CMake 3.15 or later (this is ${CMAKE_VERSION})")
	return()
endif()

# PREFIX/lib/cmake/stackprof/ -> PREFIX, through any symbolic link
get_filename_component(_stackprof_dir "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(_stackprof_dir "${_stackprof_dir}" DIRECTORY)
get_filename_component(_stackprof_prefix "${_stackprof_dir}/../../.." ABSOLUTE)
set(stackprof_EXECUTABLE "${_stackprof_prefix}/bin/stackprof")
set(stackprof_DATA_DIR "${_stackprof_prefix}/share/stackprof")
unset(_stackprof_prefix)

if(NOT EXISTS "${stackprof_EXECUTABLE}" OR IS_DIRECTORY "${stackprof_EXECUTABLE}")
	set(stackprof_FOUND FALSE)
	string(CONCAT stackprof_NOT_FOUND_MESSAGE
	       "no stackprof binary at ${stackprof_EXECUTABLE}, where "
	       "${CMAKE_CURRENT_LIST_FILE} expects it: install stackprof again "
	       "(make install PREFIX=...)")
	unset(_stackprof_dir)
	return()
endif()

if(NOT TARGET stackprof::stackprof)
	add_executable(stackprof::stackprof IMPORTED)
	set_target_properties(stackprof::stackprof PROPERTIES
			      IMPORTED_LOCATION "${stackprof_EXECUTABLE}")
endif()

# the functions below keep these policies, whatever the caller's
cmake_policy(PUSH)
cmake_policy(VERSION 3.15)

# stackprof_check() may be called where find_package's variables are not
# visible (a sibling directory): it reads these instead
set_property(GLOBAL PROPERTY stackprof_EXECUTABLE "${stackprof_EXECUTABLE}")
set_property(GLOBAL PROPERTY stackprof_DATA_DIR "${stackprof_DATA_DIR}")
set_property(GLOBAL PROPERTY stackprof_RUNNER "${_stackprof_dir}/stackprof-check.sh")
unset(_stackprof_dir)

# Does a command line (a list of options) ask for debug information?  The
# last of -g, -gN, -ggdb[N], -gdwarf[-N] and -g0 decides; -gsplit-dwarf,
# -gz, -gno-... and the like only modify it (GCC 11 and later).
function(_stackprof_has_debug out)
	set(on FALSE)
	foreach(opt IN LISTS ARGN)
		if(opt MATCHES "^-g([123]|gdb[123]?|dwarf(-[2-5])?)?$")
			set(on TRUE)
		elseif(opt STREQUAL "-g0" OR opt STREQUAL "-ggdb0")
			set(on FALSE)
		endif()
	endforeach()
	set(${out} ${on} PARENT_SCOPE)
endfunction()

# -g for TARGET's C and C++ sources in the configurations whose flags have
# no debug information: a generator expression per language and
# configuration, since a multi-config generator builds each with its own
# CMAKE_<LANG>_FLAGS_<CONFIG>.
function(_stackprof_add_debug target)
	get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
	get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
	get_target_property(own ${target} COMPILE_OPTIONS)
	if(NOT own)
		set(own "")
	endif()
	string(GENEX_STRIP "${own}" own)
	# "-": an empty CMAKE_BUILD_TYPE, which is a configuration too
	set(configs "-${CMAKE_BUILD_TYPE}")
	if(multi)
		set(configs "")
		foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES)
			list(APPEND configs "-${config}")
		endforeach()
	endif()
	set(added "")
	foreach(lang C CXX)
		if(NOT lang IN_LIST langs)
			continue()
		endif()
		foreach(config IN LISTS configs)
			string(SUBSTRING "${config}" 1 -1 config)
			string(TOUPPER "${config}" upper)
			separate_arguments(flags UNIX_COMMAND
					   "${CMAKE_${lang}_FLAGS} ${CMAKE_${lang}_FLAGS_${upper}}")
			_stackprof_has_debug(debug ${flags} ${own})
			if(debug)
				continue()
			endif()
			set(when "$<COMPILE_LANGUAGE:${lang}>")
			if(multi)
				set(when "$<AND:${when},$<CONFIG:${config}>>")
			endif()
			list(APPEND added "$<${when}:-g>")
		endforeach()
	endforeach()
	if(added)
		target_compile_options(${target} PRIVATE ${added})
	endif()
endfunction()

# ANNOTATE arguments as stackprof would take them from the calling
# directory: a file, else a shipped NAME.ann
function(_stackprof_annotation out arg)
	get_property(data GLOBAL PROPERTY stackprof_DATA_DIR)
	if(IS_ABSOLUTE "${arg}")
		set(path "${arg}")
	elseif(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${arg}"
	       AND NOT IS_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/${arg}")
		set(path "${CMAKE_CURRENT_SOURCE_DIR}/${arg}")
	elseif(arg MATCHES "^[A-Za-z0-9_-]+$" AND EXISTS "${data}/${arg}.ann")
		set(path "${data}/${arg}.ann")
	else()
		message(FATAL_ERROR "stackprof_check: ANNOTATE ${arg}: no file "
			"${CMAKE_CURRENT_SOURCE_DIR}/${arg}, and no shipped ${data}/${arg}.ann")
	endif()
	set(${out} "${path}" PARENT_SCOPE)
endfunction()

function(stackprof_check target)
	cmake_parse_arguments(PARSE_ARGV 1 arg "ALLOW_UNBOUNDED;POST_BUILD" "BUDGET"
			      "ENTRY;ENTRY_GLOB;ANNOTATE;FLAGS")
	if(arg_UNPARSED_ARGUMENTS)
		message(FATAL_ERROR "stackprof_check(${target}): unknown arguments "
			"'${arg_UNPARSED_ARGUMENTS}' (BUDGET, ENTRY, ENTRY_GLOB, ANNOTATE, "
			"FLAGS, ALLOW_UNBOUNDED, POST_BUILD)")
	endif()
	if(NOT TARGET ${target})
		message(FATAL_ERROR "stackprof_check: no target '${target}' (call it after add_executable)")
	endif()
	get_target_property(type ${target} TYPE)
	get_target_property(imported ${target} IMPORTED)
	if(imported)
		message(FATAL_ERROR "stackprof_check: '${target}' is imported: "
			"only a target this project links has objects to read")
	endif()
	if(NOT type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
		message(FATAL_ERROR "stackprof_check: '${target}' is a ${type}, "
			"not a linked program or shared library")
	endif()
	get_target_property(dir ${target} SOURCE_DIR)
	if(NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
		message(FATAL_ERROR "stackprof_check: call it in ${dir}, which creates "
			"'${target}': only there can CMake add steps to its link")
	endif()
	if(NOT DEFINED arg_BUDGET)
		set(arg_BUDGET 8K)
	endif()
	if(NOT arg_BUDGET MATCHES "^[0-9]+[kKmMgG]?$")
		message(FATAL_ERROR "stackprof_check(${target}): BUDGET '${arg_BUDGET}' is "
			"not bytes (e.g. 4096, 8K, 1M)")
	endif()
	get_property(exe GLOBAL PROPERTY stackprof_EXECUTABLE)
	get_property(runner GLOBAL PROPERTY stackprof_RUNNER)

	target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:-fstack-usage>")
	# an LTO link generates the code, and writes the rows, at link time;
	# a link without -flto ignores the option
	if(CMAKE_C_COMPILER_ID STREQUAL "GNU" OR CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
		target_link_options(${target} PRIVATE -fstack-usage)
	endif()
	if(CMAKE_VERSION VERSION_LESS 3.19)
		_stackprof_add_debug(${target})
	else()
		# flags set after this call still count; a deferred call's
		# arguments are expanded when it runs, so the name goes in now
		cmake_language(EVAL CODE
			"cmake_language(DEFER CALL _stackprof_add_debug [==[${target}]==])")
	endif()

	set(opts ${arg_FLAGS} --budget ${arg_BUDGET})
	foreach(name IN LISTS arg_ENTRY)
		list(APPEND opts --entry ${name})
	endforeach()
	foreach(pattern IN LISTS arg_ENTRY_GLOB)
		list(APPEND opts --entry-glob ${pattern})
	endforeach()
	foreach(file IN LISTS arg_ANNOTATE)
		_stackprof_annotation(path "${file}")
		list(APPEND opts --annotate ${path})
		# POST_BUILD checks again when an annotation changes
		set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${path}")
	endforeach()
	if(arg_ALLOW_UNBOUNDED)
		list(APPEND opts --allow-unbounded)
	endif()
	set(check ${exe} $<TARGET_FILE:${target}> ${opts} -- "$<TARGET_OBJECTS:${target}>")

	add_custom_target(${target}-stack-check
		COMMAND sh ${runner} ${check}
		COMMENT "stackprof: the stack of ${target} against ${arg_BUDGET}"
		VERBATIM)
	add_dependencies(${target}-stack-check ${target})
	if(NOT DEFINED BUILD_TESTING OR BUILD_TESTING)
		add_test(NAME ${target}-stack COMMAND sh ${runner} ${check})
		set_tests_properties(${target}-stack PROPERTIES LABELS stackprof)
	endif()
	# rows of an earlier LTO link would be taken for this link's
	add_custom_command(TARGET ${target} PRE_LINK
		COMMAND sh ${runner} --pre-link $<TARGET_FILE:${target}>
		VERBATIM)
	if(arg_POST_BUILD)
		add_custom_command(TARGET ${target} POST_BUILD
			COMMAND sh ${runner} --post-build ${check}
			COMMENT "stackprof: the stack of ${target} against ${arg_BUDGET}"
			VERBATIM)
	endif()
endfunction()

cmake_policy(POP)
